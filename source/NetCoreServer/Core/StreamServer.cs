using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Core;
using NetCoreServer.Transports;
using NetCoreServer.Transports.Tls;

namespace NetCoreServer;

/// <summary>
/// A server of stream connections (TCP, TLS, Unix sockets): listens, accepts, and gives each connection a
/// session made by <see cref="CreateSession"/>. Transports differ only in the session type and the endpoint.
/// Hook order per connection (NetCoreServer's): session.OnConnecting, server.OnConnecting, session.OnConnected,
/// server.OnConnected, session.OnEmpty, then data hooks, then session.OnDisconnecting, server.OnDisconnecting,
/// session.OnDisconnected, server.OnDisconnected.
/// </summary>
/// <typeparam name="TSession">The session type of this server.</typeparam>
public abstract partial class StreamServer<TSession> : StreamServer, IDisposable
    where TSession : StreamSession
{
    private static readonly TimeSpan s_acceptRetryDelay = TimeSpan.FromMilliseconds(50);

    // An aborted session finishes as soon as its loops see the closed socket; only a hook that blocks can delay it.
    private static readonly TimeSpan s_abortWait = TimeSpan.FromSeconds(5);

    // Orders accepting against stopping: a connection is either registered before Stop takes its snapshot (and is
    // stopped with the others) or closed unseen after it.
    private readonly object _acceptLock = new();
    private Socket? _listener;

    /// <summary>Creates a server for any endpoint.</summary>
    /// <param name="target">The endpoint, and the address and port as given by the user.</param>
    private protected StreamServer(EndpointSpec target)
    {
        Id = Guid.NewGuid();
        (Endpoint, Address, Port) = target;
    }

    /// <summary>Unique identifier of this server.</summary>
    public Guid Id { get; }

    /// <summary>The address as given to the constructor; for a Unix-socket server, the path of its socket file.</summary>
    public string Address { get; }

    /// <summary>The port as given to the constructor; 0 for a Unix-socket server.</summary>
    public int Port { get; }

    /// <summary>The endpoint; after <see cref="Start"/> it is the bound endpoint, so a server started on port 0 reports its real port.</summary>
    public EndPoint Endpoint { get; private set; }

    /// <summary>True between a successful <see cref="Start"/> and <see cref="Stop"/>.</summary>
    public bool IsStarted { get; private set; }

    /// <summary>True while new connections are being accepted.</summary>
    public bool IsAccepting { get; private set; }

    /// <summary>True after <see cref="Dispose()"/>.</summary>
    public bool IsDisposed { get; private set; }

    /// <summary>True when the listening socket is closed.</summary>
    public bool IsSocketDisposed => _listener == null;

    /// <summary>Bytes queued and not yet sent, summed over all sessions (computed on read).</summary>
    public long BytesPending => Sessions.Values.Sum(s => s.BytesPending + s.BytesSending);

    /// <summary>Creates the listening socket; override to customise it.</summary>
    /// <returns>A new, unbound socket for <see cref="Endpoint"/>.</returns>
    protected virtual Socket CreateSocket()
        => new(Endpoint.AddressFamily, SocketType.Stream, Endpoint is UnixDomainSocketEndPoint ? ProtocolType.Unspecified : ProtocolType.Tcp);

    /// <summary>Binds, listens and starts accepting. Hooks: OnStarting (after bind), OnStarted.</summary>
    /// <returns>False if already started.</returns>
    /// <exception cref="SocketException">The endpoint cannot be bound (for example, the port is in use).</exception>
    public virtual bool Start()
    {
        if (IsStarted)
            return false;
        if (Endpoint is DnsEndPoint dns)
            Endpoint = new IPEndPoint(Dns.GetHostAddresses(dns.Host).First(), dns.Port);

        var listener = CreateSocket();
        try
        {
            ConfigureListener(listener);
            BindListener(listener);
            Endpoint = listener.LocalEndPoint ?? Endpoint;
            OnStarting();
            listener.Listen(OptionAcceptorBacklog);
        }
        catch
        {
            listener.Dispose();
            ListenerClosed();
            throw;
        }

        _listener = listener;
        ResetCounters();
        IsStarted = true;
        OnStarted();
        IsAccepting = true;
        _ = AcceptLoopAsync(listener);
        return true;
    }

    /// <summary>
    /// Stops accepting, disconnects every session gracefully and waits (bounded by the sessions' disconnect
    /// timeout) until they have closed, so that afterwards <see cref="ConnectedSessions"/> is 0. Called from inside
    /// a hook, or on an event loop's thread (whose loop the sessions' closes may need), it does not wait. Hooks: OnStopping, then session disconnect hooks, then OnStopped.
    /// </summary>
    /// <returns>False if not started.</returns>
    public virtual bool Stop()
    {
        if (!IsStarted)
            return false;
        OnStopping();
        TSession[] sessions;
        lock (_acceptLock)
        {
            IsAccepting = false;
            Interlocked.Exchange(ref _listener, null)?.Dispose();
            sessions = Sessions.Values.ToArray();
        }
        Handshakes?.Wake();
        ListenerClosed();

        foreach (var session in sessions)
            session.DisconnectForStop();
        if (!Hooks.InsideAny && !EventLoop.IsLoopThread && sessions.Length > 0)
        {
            // Graceful first, bounded by the sessions' disconnect timeout; whatever is left is then closed at once.
            var longest = sessions.Max(s => s.OptionDisconnectTimeout);
            var closed = sessions.Select(s => s.Completion).ToArray();
            if (!Task.WaitAll(closed, longest + TimeSpan.FromSeconds(1)))
            {
                foreach (var session in sessions)
                    session.AbortForStop();
                Task.WaitAll(closed, s_abortWait);
            }
        }

        IsStarted = false;
        OnStopped();
        return true;
    }

    /// <summary>Stops and starts again on the same endpoint.</summary>
    /// <returns>False if the server was not started.</returns>
    public virtual bool Restart() => Stop() && Start();

    private void ConfigureListener(Socket listener)
    {
        if (OptionReuseAddress && listener.AddressFamily != AddressFamily.Unix)
            listener.SetSocketOption(SocketOptionLevel.Socket, SocketOptionName.ReuseAddress, true);
        if (OptionExclusiveAddressUse && OperatingSystem.IsWindows())
            listener.ExclusiveAddressUse = true;
        if (listener.AddressFamily == AddressFamily.InterNetworkV6)
            listener.DualMode = OptionDualMode;
        PrepareListener(listener);
    }

    /// <summary>Transport-specific preparation of the listening socket before it binds (Unix sockets remove a stale file).</summary>
    /// <param name="listener">The new listening socket.</param>
    private protected virtual void PrepareListener(Socket listener)
    {
    }

    /// <summary>Binds the listening socket to <see cref="Endpoint"/> (Unix sockets also note which file they created).</summary>
    /// <param name="listener">The configured listening socket.</param>
    private protected virtual void BindListener(Socket listener) => listener.Bind(Endpoint);

    /// <summary>The handshakes under way and their cap (TLS servers); null for transports without a handshake.</summary>
    private protected virtual HandshakeGate? Handshakes => null;

    /// <summary>Transport-specific cleanup after the listening socket closed (also after a failed Start).</summary>
    private protected virtual void ListenerClosed()
    {
    }

    /// <summary>One long-lived loop per listener; a synchronous accept iterates instead of recursing.</summary>
    private async Task AcceptLoopAsync(Socket listener)
    {
        using var args = new AwaitableSocketArgs();
        while (IsAccepting && ReferenceEquals(_listener, listener))
        {
            // Handshakes at their cap: new connections wait in the backlog until one ends.
            var room = Handshakes?.WaitForRoomAsync();
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
                if (!IsAccepting || !ReferenceEquals(_listener, listener))
                    break;
                if (result.Error == SocketError.OperationAborted || result.Error == SocketError.InvalidArgument)
                    break;
                if (result.Error == SocketError.ConnectionReset || result.Error == SocketError.ConnectionAborted)
                    continue;
                ReportError(result.Error);
                // Out of descriptors or buffers: retrying at once would spin a core while nothing can succeed.
                await Task.Delay(s_acceptRetryDelay).ConfigureAwait(false);
                continue;
            }
            Accept(listener, socket)?.StartAccepted(_multicastLog);
        }
    }

    /// <summary>
    /// Makes and registers the session of an accepted socket; null when it was refused (the server stopped meanwhile,
    /// <see cref="CreateSession"/> threw, or the socket rejected an option). A failure costs that connection only:
    /// the accept loop goes on.
    /// </summary>
    private StreamSessionEngine? Accept(Socket listener, Socket socket)
    {
        if (!Admit(socket, out var admitted))
            return null;
        TSession session;
        try
        {
            session = CreateSession();
        }
        catch (Exception exception)
        {
            socket.Dispose();
            ReleaseAdmission(admitted);
            ReportHandlerException(exception);
            return null;
        }
        SocketError refused;
        lock (_acceptLock)
        {
            if (!IsAccepting || !ReferenceEquals(_listener, listener))
            {
                socket.Dispose();
                ReleaseAdmission(admitted);
                return null;
            }
            try
            {
                var engine = session.Accept(socket, admitted);
                RegisterSession(session);
                return engine;
            }
            catch (SocketException exception)
            {
                socket.Dispose();
                ReleaseAdmission(admitted);
                refused = exception.SocketErrorCode;
            }
        }
        // Linux refuses some options on a socket the peer already reset: that connection is simply gone.
        if (!SocketErrors.IsQuiet(refused) && refused != SocketError.InvalidArgument)
            ReportError(refused);
        return null;
    }

    /// <summary>Raises the server's OnError from the accept loop; a hook that throws goes to OnHandlerException.</summary>
    private void ReportError(SocketError error)
        => Hooks.Run(this, HookKind.Other, error, static (server, error) => server.OnError(error), static (server, exception) => server.ReportHandlerException(exception));

    private void ReportHandlerException(Exception exception)
    {
        try
        {
            OnHandlerException(exception);
        }
        catch (Exception)
        {
            // Nothing more to report to; the accept loop must survive it.
        }
    }

    /// <summary>Stops the server (when <paramref name="disposingManagedResources"/> is true) and marks it disposed.</summary>
    /// <param name="disposingManagedResources">True when called from <see cref="Dispose()"/>.</param>
    protected virtual void Dispose(bool disposingManagedResources)
    {
        if (IsDisposed)
            return;
        if (disposingManagedResources)
            Stop();
        IsDisposed = true;
    }

    /// <summary>Stops the server and releases it.</summary>
    public void Dispose()
    {
        Dispose(true);
        GC.SuppressFinalize(this);
    }
}
