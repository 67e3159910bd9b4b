using System;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Examples;

/// <summary>
/// Keeps a client connected: after every disconnect or failed attempt it connects again one <see cref="Delay"/>
/// later, until <see cref="Stop"/>. It also tells an outage (from the first disconnect to the next usable
/// connection) from the attempts inside it, so a client can print one line per outage, not one per second.
/// </summary>
/// <remarks>Thread-safe: hooks of a client run on thread-pool threads.</remarks>
public sealed class AutoReconnect
{
    private readonly Func<bool> _connect;
    private volatile bool _stopped;
    private volatile bool _recovering;

    /// <summary>Creates the policy for one client.</summary>
    /// <param name="connect">Starts a connect attempt, such as the client's <c>ConnectAsync</c>; called on a
    /// thread-pool thread. It must not block, and returning false (already connected) is fine.</param>
    /// <param name="delay">The wait before each attempt; one second when null.</param>
    public AutoReconnect(Func<bool> connect, TimeSpan? delay = null)
    {
        ArgumentNullException.ThrowIfNull(connect);
        _connect = connect;
        Delay = delay ?? TimeSpan.FromSeconds(1);
    }

    /// <summary>The wait before each attempt.</summary>
    public TimeSpan Delay { get; }

    /// <summary>True once <see cref="Stop"/> was called: no attempt is scheduled or started any more.</summary>
    public bool IsStopped => _stopped;

    /// <summary>True during an outage: after a disconnect, until <see cref="Recovered"/>.</summary>
    public bool IsRecovering => _recovering;

    /// <summary>Ends reconnecting for good; call before disconnecting on purpose.</summary>
    public void Stop() => _stopped = true;

    /// <summary>Ends the outage; call when the connection is usable (connected, or handshaked for TLS).</summary>
    public void Recovered() => _recovering = false;

    /// <summary>Call from <c>OnDisconnected</c>: schedules the next attempt unless stopped.</summary>
    /// <returns>True when this disconnect begins an outage, the moment to tell the user; false for a failed
    /// attempt inside one, and after <see cref="Stop"/>.</returns>
    public bool Disconnected()
    {
        if (_stopped)
            return false;
        var began = !_recovering;
        _recovering = true;
        // Wait on a timer, not with Thread.Sleep in the hook: a failed connect can report OnDisconnected inline from
        // ConnectAsync, so sleeping and connecting inside the hook would nest one attempt in the next and block a
        // thread-pool thread for every second the server is away.
        _ = Task.Delay(Delay).ContinueWith(static (_, state) => ((AutoReconnect)state!).ConnectLater(), this,
            CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Default);
        return began;
    }

    private void ConnectLater()
    {
        // A manual reconnect may already have connected again; ConnectAsync then just returns false.
        if (!_stopped)
            _connect();
    }
}
