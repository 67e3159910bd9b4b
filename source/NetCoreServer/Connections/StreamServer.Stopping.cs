using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Connections;

namespace NetCoreServer;

// Stopping, synchronous (NetCoreServer's Stop) and drained (StopAsync): a file of its own only because the server would pass 500 lines with it.
public abstract partial class StreamServer<TSession>
{
    /// <summary>
    /// Stops accepting, disconnects every session gracefully and waits (bounded by their disconnect timeout) until they
    /// have closed. Inside a hook it does not wait; on an event loop's thread the loop is handed on before it waits. Hooks: OnStopping, the sessions'
    /// disconnect hooks, OnStopped.
    /// </summary>
    /// <returns>False if not started.</returns>
    public virtual bool Stop()
    {
        if (!IsStarted)
            return false;
        OnStopping();
        SessionRegistry<TSession>.Stop(CloseListener());
        Stopped();
        return true;
    }

    /// <summary>
    /// Drains, then stops: accepting stops at once; each session says goodbye its protocol's way (a WebSocket session
    /// sends close 1001 "going away" and ends when its client answers, or at its close timeout) or else disconnects
    /// gracefully, delivering what it had queued (bounded by its disconnect timeout); the task completes once every
    /// session has closed. When <paramref name="cancellationToken"/> is cancelled first, the sessions left are closed at
    /// once (their queued data dropped) and the task completes; it does not throw for it. Hooks as <see cref="Stop"/>;
    /// OnStopped runs on the thread that saw the last session close.
    /// </summary>
    /// <param name="cancellationToken">Ends the drain early (a host's shutdown timeout).</param>
    /// <returns>False if not started.</returns>
    public async Task<bool> StopAsync(CancellationToken cancellationToken = default)
    {
        if (!IsStarted)
            return false;
        OnStopping();
        await SessionRegistry<TSession>.DrainAsync(CloseListener(), cancellationToken).ConfigureAwait(false);
        Stopped();
        return true;
    }

    /// <summary>Stops accepting and closes the listening socket; returns the sessions registered by then.</summary>
    private TSession[] CloseListener()
    {
        var sessions = _accept.Close(() => _registry.Sessions.Values.ToArray());
        Handshakes?.Wake();
        ListenerClosed();
        return sessions;
    }

    private void Stopped()
    {
        IsStarted = false;
        Metrics?.Stop();
        OnStopped();
    }

    /// <summary>Stops and starts again on the same endpoint.</summary>
    /// <returns>False if the server was not started.</returns>
    public virtual bool Restart() => Stop() && Start();

    /// <summary>Starts a graceful disconnect of every session.</summary>
    /// <returns>False if the server is not started.</returns>
    public virtual bool DisconnectAll()
    {
        if (!IsStarted)
            return false;
        _registry.DisconnectAll();
        return true;
    }
}
