using System.Net.Sockets;
using System.Security.Cryptography;
using System.Threading;
using NetCoreServer.Engine;
using NetCoreServer.Transports;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// The client end of a WebSocket connection, shared by <see cref="WsClient"/> (TCP) and <see cref="WssClient"/>
/// (TLS): it sends the upgrade request on every connect, checks the answer within the handshake timeout, and serves the
/// blocking calls of a client connected with the synchronous Connect (no receive loop). The upgrade state is one int
/// changed with compare-and-swap, so the answer, a failure and the timeout race safely: the first one wins.
/// </summary>
internal sealed class WsClientPeer : WsPeer<IWsClientHost>, IWsUpgradeClient
{
    private const int UpgradeNone = 0;
    private const int UpgradePending = 1;
    private const int UpgradeDone = 2;

    private readonly byte[] _nonce = new byte[WsHandshake.NonceSize];
    private int _upgradeState;
    private CallbackTimer? _handshakeTimer;

    // Set by the synchronous Connect (no receive loop): bytes read by blocking calls and not consumed yet.
    private WsBlockingInput? _input;

    public WsClientPeer(IWsClientHost client)
        : base(client)
    {
    }

    public WsOptions Options { get; } = new();

    /// <summary>The random 16 bytes of the current upgrade (its base64 is the Sec-WebSocket-Key).</summary>
    public byte[] Nonce => _nonce;

    /// <summary>Before a synchronous Connect: an event loop's thread hands its loop on; blocking reads get their input buffer.</summary>
    public void PrepareBlockingConnect()
    {
        EventLoop.HandOffBeforeWaiting();
        var limit = Host.OptionReceiveBufferLimit;
        _input = new WsBlockingInput(limit > 0 ? limit : 1024 * 1024);
    }

    /// <summary>After a synchronous connect: reads the answer to the upgrade here; true when upgraded.</summary>
    public bool FinishBlockingConnect()
    {
        var engine = Host.Engine;
        var input = _input;
        if (engine == null || input == null)
            return false;
        using (Hooks.Enter(engine))
        {
            while (Volatile.Read(ref _upgradeState) == UpgradePending && input.Pump(engine, () => Host.Protocol, () => Volatile.Read(ref _upgradeState) != UpgradePending))
            {
            }
        }
        return Connection != null && Host.IsConnected;
    }

    /// <summary>An asynchronous connect runs the receive loop: no blocking input.</summary>
    public void ForgetBlockingInput() => _input = null;

    /// <summary>Before the receive loop starts after a synchronous Connect: bytes the blocking calls read ahead are handled first.</summary>
    public void DrainBlockingInput()
    {
        var input = _input;
        var engine = Host.Engine;
        _input = null;
        if (input == null || engine == null)
            return;
        using (Hooks.Enter(engine))
            input.Drain(() => Host.Protocol, static () => false);
    }

    /// <summary>The connection is up: the upgrade starts now, or over TLS after the handshake (as in NetCoreServer's WssClient).</summary>
    public void Connected()
    {
        if (Host.Engine?.Transport.Tls == null)
            BeginUpgrade();
    }

    /// <summary>The TLS handshake completed: the upgrade starts.</summary>
    public void Handshaked() => BeginUpgrade();

    /// <summary>Ends an upgrade still under way with an error, then raises OnWsDisconnecting for an upgraded connection.</summary>
    public void Disconnecting()
    {
        if (EndUpgrade())
            Host.OnWsError("the connection ended before the WebSocket upgrade was answered");
        RaiseDisconnecting();
    }

    /// <summary>After OnDisconnected: the framer of the ended connection and the handshake timer give back what they hold.</summary>
    public void Release(WsConnection? ended)
    {
        ended?.Dispose();
        Interlocked.Exchange(ref _handshakeTimer, null)?.Close();
    }

    void IWsUpgradeClient.UpgradeAnswered(HttpResponse response)
    {
        if (!EndUpgrade())
            return;
        if (!WsClientHandshake.Validate(Host.Request, response, out var result, out var error))
        {
            Host.OnWsError(error);
            Host.DisconnectEngine(DisconnectReason.HandshakeFailed);
            return;
        }
        var ws = new WsConnection(Host, WsRole.Client, result, Options);
        Host.Protocol = ws;
        Publish(ws);
        ws.Start();
        Host.OnWsConnected(response);
    }

    void IWsUpgradeClient.UpgradeFailed(string error)
    {
        if (!EndUpgrade())
            return;
        Host.OnWsError("the answer to the WebSocket upgrade is not valid HTTP: " + error);
        Host.DisconnectEngine(DisconnectReason.HandshakeFailed);
    }

    private protected override byte[]? ReceiveMessage()
    {
        var ws = Connection;
        var input = _input;
        var engine = Host.Engine;
        if (ws == null || input == null || engine == null)
            return null;
        EventLoop.HandOffBeforeWaiting();
        ws.CaptureNext();
        try
        {
            using (Hooks.Enter(engine))
            {
                input.Drain(() => Host.Protocol, () => ws.HasCaptured);
                while (!ws.HasCaptured && Host.IsConnected && input.Pump(engine, () => Host.Protocol, () => ws.HasCaptured))
                {
                }
            }
            return ws.TakeCaptured();
        }
        finally
        {
            ws.StopCapturing();
        }
    }

    // A client's Close and CloseAsync return once the connection has closed and OnDisconnected ran, as NetCoreServer's
    // (reading the answer itself when no receive loop runs); not inside its own hooks, which the close needs to return.
    // On an event loop's thread the loop is handed on first: the close may need it.
    private protected override void WaitClosed()
    {
        var engine = Host.Engine;
        if (engine == null || Host.IsInsideOwnHook)
            return;
        EventLoop.HandOffBeforeWaiting();
        var input = _input;
        if (input != null)
        {
            using (Hooks.Enter(engine))
            {
                while (Host.IsConnected && input.Pump(engine, () => Host.Protocol, static () => false))
                {
                }
            }
        }
        Host.WaitDisconnected(engine, Options.CloseTimeout + Host.OptionDisconnectTimeout);
    }

    /// <summary>Writes the upgrade request (default, then OnWsConnecting), puts the answer reader in the slot and sends it.</summary>
    private void BeginUpgrade()
    {
        Publish(null);
        RandomNumberGenerator.Fill(_nonce);
        var address = Host.Address;
        // A socket file has no host name to give (RFC 6455 4.1 wants one): "localhost", as curl --unix-socket sends.
        var host = Host.Endpoint is UnixDomainSocketEndPoint ? "localhost"
            : address.Contains(':') ? $"[{address}]:{Host.Port}" : $"{address}:{Host.Port}";
        WsClientHandshake.BuildRequest(Host.Request, host, Options.Path, _nonce, Options.ToHandshake());
        Host.OnWsConnecting(Host.Request);
        if (Host.Request.Store.BodyStart == 0)
            WsHandshake.EndHead(Host.Request.Store);
        Host.Protocol = new WsClientUpgrade(this, Host.Response);
        Volatile.Write(ref _upgradeState, UpgradePending);
        var timer = new CallbackTimer(Host.Timers, static s => ((WsClientPeer)s).HandshakeTimedOut(), this);
        Interlocked.Exchange(ref _handshakeTimer, timer)?.Close();
        timer.Schedule(Options.HandshakeTimeout);
        Host.Request.Store.Split(out var head, out var body);
        Host.SendMessage(head, body, blocking: false);
    }

    /// <summary>True once when the upgrade under way ends (answered, failed or timed out); the loser of a race does nothing.</summary>
    private bool EndUpgrade()
    {
        if (Interlocked.CompareExchange(ref _upgradeState, UpgradeDone, UpgradePending) != UpgradePending)
            return false;
        Interlocked.Exchange(ref _handshakeTimer, null)?.Close();
        return true;
    }

    private void HandshakeTimedOut()
    {
        if (!EndUpgrade())
            return;
        Host.OnWsError($"the WebSocket upgrade was not answered within {Options.HandshakeTimeout.TotalSeconds:0.###} s");
        Host.Abort(DisconnectReason.Timeout);
    }
}
