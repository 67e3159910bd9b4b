using System;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Transports;

namespace NetCoreServer.Connections;

/// <summary>
/// A server's listening socket and its one long-lived accept loop (a synchronous accept iterates, never recurses).
/// Lock: <c>_lock</c> orders registering an accepted connection against <see cref="Close{T}"/>, so a connection is
/// either registered before Close takes its snapshot (and is stopped with the others) or closed unseen after it.
/// </summary>
internal sealed class AcceptLoop
{
    private static readonly TimeSpan s_retryDelay = TimeSpan.FromMilliseconds(50);

    private readonly object _lock = new();
    private readonly IAcceptor _acceptor;
    private Socket? _listener;
    private volatile bool _accepting;

    public AcceptLoop(IAcceptor acceptor) => _acceptor = acceptor;

    /// <summary>True while new connections are being accepted.</summary>
    public bool IsAccepting => _accepting;

    /// <summary>True when no listening socket is open.</summary>
    public bool IsClosed => Volatile.Read(ref _listener) == null;

    /// <summary>Takes a bound, listening socket; accepting begins with <see cref="Run"/>.</summary>
    public void Attach(Socket listener) => Volatile.Write(ref _listener, listener);

    /// <summary>Starts accepting on the attached listener.</summary>
    public void Run()
    {
        var listener = Volatile.Read(ref _listener);
        if (listener == null)
            return;
        _accepting = true;
        _ = RunAsync(listener);
    }

    /// <summary>Stops accepting, closes the listener and, still under the lock, takes <paramref name="snapshot"/>.</summary>
    public T Close<T>(Func<T> snapshot)
    {
        lock (_lock)
        {
            _accepting = false;
            Interlocked.Exchange(ref _listener, null)?.Dispose();
            return snapshot();
        }
    }

    private bool Serves(Socket listener) => _accepting && ReferenceEquals(Volatile.Read(ref _listener), listener);

    private async Task RunAsync(Socket listener)
    {
        using var args = new AwaitableSocketArgs();
        while (Serves(listener))
        {
            // Handshakes at their cap: new connections wait in the backlog until one ends.
            var room = _acceptor.Handshakes?.WaitForRoomAsync();
            if (room != null && !room.IsCompleted)
            {
                await room.ConfigureAwait(false);
                continue;
            }
            var result = await args.AcceptAsync(listener).ConfigureAwait(false);
            var socket = args.AcceptSocket;
            args.AcceptSocket = null;
            if (!result.Succeeded || socket == null)
            {
                socket?.Dispose();
                if (!Serves(listener))
                    break;
                if (result.Error == SocketError.OperationAborted || result.Error == SocketError.InvalidArgument)
                    break;
                if (result.Error == SocketError.ConnectionReset || result.Error == SocketError.ConnectionAborted)
                    continue;
                _acceptor.ReportError(result.Error);
                // Out of descriptors or buffers: retrying at once would spin a core while nothing can succeed.
                await Task.Delay(s_retryDelay).ConfigureAwait(false);
                continue;
            }
            if (Accept(listener, socket) is { } engine)
                _acceptor.Start(engine);
        }
    }

    /// <summary>
    /// Admits and registers an accepted socket; null when it was refused (the server stopped meanwhile, the session
    /// could not be made, or the socket rejected an option). A failure costs that connection only.
    /// </summary>
    private StreamSessionEngine? Accept(Socket listener, Socket socket)
    {
        if (!_acceptor.TryAdmit(socket, out var session, out var admitted))
            return null;
        SocketError refused;
        lock (_lock)
        {
            if (!Serves(listener))
            {
                socket.Dispose();
                _acceptor.Abandon(admitted);
                return null;
            }
            try
            {
                return _acceptor.RegisterLocked(session!, socket, admitted);
            }
            catch (SocketException exception)
            {
                socket.Dispose();
                _acceptor.Abandon(admitted);
                refused = exception.SocketErrorCode;
            }
        }
        // Linux refuses some options on a socket the peer already reset: that connection is simply gone.
        if (!SocketErrors.IsQuiet(refused) && refused != SocketError.InvalidArgument)
            _acceptor.ReportError(refused);
        return null;
    }
}
