using System;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Protocols;
using NetCoreServer.Transports;

namespace NetCoreServer;

/// <summary>
/// A connection accepted by a <see cref="StreamServer{TSession}"/>: the server-side half that
/// <see cref="TcpSession"/> and the other transports' sessions share.
/// </summary>
public abstract class StreamSession : StreamConnection, IProtocolSession
{
    // When the connection was accepted (a Stopwatch timestamp), or 0 when nobody listened to its duration.
    private long _acceptedAt;

    // The server's shared session options, so a session makes no options object of its own until one is written.
    private protected StreamSession(StreamServer owner)
        : base(owner.SessionLimits())
    {
        System.Diagnostics.Debug.Assert(Limits.Owner == owner, "a server's session options name it");
    }

    /// <summary>The connected socket; null until the server has accepted the session's connection (set before OnConnecting).</summary>
    public Socket? Socket => Engine?.Transport.Socket;

    /// <summary>
    /// The server that accepted this session (the transports' sessions expose it typed as <c>Server</c>), named by the
    /// options the session started from (its server's shared ones, or its own copy of them).
    /// </summary>
    private protected StreamServer Owner => (StreamServer)Limits.Owner!;

    /// <summary>
    /// Starts a graceful disconnect and returns at once: new sends are refused, data already accepted is delivered
    /// (bounded by <see cref="StreamConnection.OptionDisconnectTimeout"/>), then the socket closes and
    /// <see cref="StreamConnection.OnDisconnected"/> runs. Safe from any thread, any number of times.
    /// </summary>
    /// <returns>True if this call started the disconnect.</returns>
    public virtual bool Disconnect() => DisconnectEngine(NetCoreServer.DisconnectReason.Local);

    /// <summary>Completes after OnDisconnected has run.</summary>
    internal Task Completion => Engine?.Completion ?? Task.CompletedTask;

    /// <summary>
    /// The remote endpoint this session is counted under by its server's per-address cap (null for Unix sockets): kept by
    /// the transport (a plain socket's in a slot its receive args leave unused) rather than by a field here.
    /// </summary>
    internal System.Net.EndPoint? AdmittedEndPoint => Engine?.Transport.AdmittedEndPoint;

    /// <summary>Takes an accepted socket: its transport (with the server's socket options) and the engine (no hooks yet; see <see cref="StreamSessionEngine.StartAccepted"/>).</summary>
    internal StreamSessionEngine Accept(Socket socket, System.Net.EndPoint? admitted)
    {
        var transport = CreateTransport(socket);
        transport.AdmittedEndPoint = admitted;
        _acceptedAt = Owner.Metrics?.ConnectionStart() ?? 0;
        return CreateEngine(transport);
    }

    /// <summary>The transport for an accepted socket (see <see cref="TransportFactory"/>); TLS for secure sessions.</summary>
    /// <param name="socket">The accepted socket.</param>
    /// <returns>The transport the engine will use.</returns>
    private protected virtual IStreamTransport CreateTransport(Socket socket) => TransportFactory.Create(socket, Owner.OptionEventLoops, Owner.AcceptedTcpOptions);

    internal void DisconnectForStop() => DisconnectEngine(NetCoreServer.DisconnectReason.ServerStopped);

    /// <summary>A draining server's request: the protocol's goodbye if it has one (WebSocket close 1001), else a graceful disconnect.</summary>
    internal void BeginDrain()
    {
        if (Protocol?.BeginDrain() != true)
            DisconnectForStop();
    }

    /// <summary>A stopping server whose graceful wait ran out closes what is left at once.</summary>
    internal void AbortForStop() => Engine?.Abort(NetCoreServer.DisconnectReason.ServerStopped);

    /// <summary>See <see cref="StreamSessionEngine.OfferLogged(long, long, out long)"/>; NotConnected without an engine.</summary>
    internal SendStatus OfferMulticast(long start, long end, out long credit)
    {
        credit = 0;
        return Engine?.OfferLogged(start, end, out credit) ?? SendStatus.NotConnected;
    }

    /// <summary>See <see cref="StreamSessionEngine.SkipLogged"/>.</summary>
    internal void SkipMulticast(long start, long end) => Engine?.SkipLogged(start, end);

    /// <summary>See <see cref="StreamSessionEngine.WakeForLog"/>.</summary>
    internal void WakeForMulticast() => Engine?.WakeForLog();

    /// <summary>
    /// Called when a server's <c>Multicast</c> skipped this session because its send limit
    /// (<see cref="StreamConnection.OptionSendBufferLimit"/>) was reached: the peer reads more slowly than the server
    /// multicasts, and misses messages (the server's <see cref="StreamServer{TSession}.OptionSlowConsumerPolicy"/> is
    /// <see cref="SlowConsumerPolicy.Skip"/>). Raised once per episode, and only after OnConnected: again only after the
    /// queue fell to <see cref="StreamConnection.OptionSendLowWatermark"/>. Runs on the thread that called <c>Multicast</c>, after the
    /// message was queued on the other sessions. The server counts every skip in
    /// <see cref="StreamServer{TSession}.SkippedMulticasts"/>. <see cref="StreamConnection.OnError"/>
    /// (<c>NoBufferSpaceAvailable</c>) follows only when <see cref="StreamConnection.OptionSendBufferLimit"/> was set.
    /// </summary>
    /// <remarks>
    /// A protocol that cannot live with a gap can disconnect here, or send the peer a snapshot once it is writable
    /// again (<see cref="StreamConnection.OnWritabilityChanged"/>). An exception closes this session with
    /// <see cref="NetCoreServer.DisconnectReason.HandlerException"/>; it does not reach the <c>Multicast</c> call.
    /// </remarks>
    protected virtual void OnSlowConsumer()
    {
    }

    /// <summary>
    /// After a multicast this session skipped (no lock held): a slow-consumer disconnect, or OnSlowConsumer (and, with a
    /// send limit the user set, OnError) once per episode. True when an episode began.
    /// </summary>
    internal bool ReportMulticastRefusal(SlowConsumerPolicy policy)
    {
        var engine = Engine;
        if (engine == null)
            return false;
        if (policy == SlowConsumerPolicy.Disconnect)
        {
            engine.Abort(NetCoreServer.DisconnectReason.SlowConsumer);
            return true;
        }
        // Joined before OnConnected (issue 35): a message over the whole limit refused then is skipped unreported, as
        // no hook may come before OnConnected; the first refusal once connected begins the episode.
        if (!engine.IsConnected || !engine.TakeSlowConsumerReport())
            return false;
        // A loop's rule for exceptions, not an inline call's: one session's hook must not break the multicast for the others.
        engine.RunHook(HookKind.Other, this, static (_, session) => session.RaiseSlowConsumer());
        return true;
    }

    private void RaiseSlowConsumer()
    {
        OnSlowConsumer();
        // NetCoreServer reports a refused send through OnError only when its user set a limit (its default is none).
        if (Limits.SendBufferLimitSet)
            OnError(SocketError.NoBufferSpaceAvailable);
    }

    private protected override void NotifyConnecting()
    {
        OnConnecting();
        Owner.RaiseConnecting(this);
    }

    private protected override void NotifyConnected()
    {
        OnConnected();
        Owner.RaiseConnected(this);
    }

    private protected override void NotifyDisconnecting()
    {
        OnDisconnecting();
        Owner.RaiseDisconnecting(this);
    }

    private protected override void NotifyDisconnected()
    {
        OnDisconnected();
        Owner.RaiseDisconnected(this);
    }

    private protected override void NotifyReleased()
    {
        Owner.Unregister(this);
        Owner.Metrics?.ConnectionEnded(_acceptedAt, DisconnectReason);
    }

    private protected override void NotifyCounted(long received, long sent) => Owner.Count(received, sent);
}
