using System;
using System.Security.Cryptography;
using System.Threading;
using NetCoreServer.Core;
using NetCoreServer.Http;
using NetCoreServer.WebSockets;

// twin: NetCoreServer.WsClient NetCoreServer.WssClient
    private const int UpgradeNone = 0;
    private const int UpgradePending = 1;
    private const int UpgradeDone = 2;

    private readonly byte[] _nonce = new byte[WsHandshake.NonceSize];
    private int _upgradeState;
    private Timer? _handshakeTimer;

    // Set by the synchronous Connect (no receive loop): bytes read by blocking calls and not consumed yet.
    private WsBlockingInput? _input;

    /// <summary>WebSocket settings (handshake and close timeouts, message size limit, keep-alive, deflate, subprotocols, path).</summary>
    public WsOptions Ws { get; } = new();

    /// <summary>The random 16 bytes of the current upgrade; its base64 is the Sec-WebSocket-Key (fresh per connection).</summary>
    public byte[] WsNonce => _nonce;

    /// <summary>
    /// Connects, then performs the upgrade before returning: the request is sent and the answer read here (bounded by
    /// <see cref="WsOptions.HandshakeTimeout"/>). As in NetCoreServer no receive loop starts: call
    /// <see cref="ReceiveAsync"/> for OnWsReceived calls, or <see cref="ReceiveText"/>/<see cref="ReceiveBinary"/>. On an
    /// event loop's thread it throws instead of blocking the loop: use <see cref="ConnectAsync"/>.
    /// </summary>
    /// <returns>True when connected and upgraded.</returns>
    /// <exception cref="InvalidOperationException">Called on an event loop's thread.</exception>
    public override bool Connect()
    {
        NetCoreServer.Transports.EventLoop.ThrowIfLoopThread(nameof(Connect), nameof(ConnectAsync));
        _input = new WsBlockingInput(OptionReceiveBufferLimit > 0 ? OptionReceiveBufferLimit : 1024 * 1024);
        if (!base.Connect())
            return false;
        var engine = Engine;
        if (engine == null)
            return false;
        using (Hooks.Enter(engine))
        {
            while (Volatile.Read(ref _upgradeState) == UpgradePending && _input.Pump(engine, () => Protocol, () => Volatile.Read(ref _upgradeState) != UpgradePending))
            {
            }
        }
        return _ws != null && IsConnected;
    }

    /// <summary>
    /// Starts connecting and returns at once; the upgrade follows on the receive loop (OnWsConnected, or OnWsError and a
    /// disconnect when it fails or takes longer than <see cref="WsOptions.HandshakeTimeout"/>).
    /// </summary>
    /// <returns>True when the attempt started.</returns>
    public override bool ConnectAsync()
    {
        _input = null;
        return base.ConnectAsync();
    }

    /// <summary>Starts the receive loop after a synchronous Connect; bytes the blocking calls read ahead are handled first.</summary>
    public override void ReceiveAsync()
    {
        var input = _input;
        var engine = Engine;
        _input = null;
        if (input != null && engine != null)
        {
            using (Hooks.Enter(engine))
                input.Drain(() => Protocol, static () => false);
        }
        base.ReceiveAsync();
    }

    private byte[]? ReceiveMessage()
    {
        var ws = _ws;
        var input = _input;
        var engine = Engine;
        if (ws == null || input == null || engine == null)
            return null;
        NetCoreServer.Transports.EventLoop.ThrowIfLoopThread("ReceiveText/ReceiveBinary", nameof(ReceiveAsync));
        ws.CaptureNext();
        try
        {
            using (Hooks.Enter(engine))
            {
                input.Drain(() => Protocol, () => ws.HasCaptured);
                while (!ws.HasCaptured && IsConnected && input.Pump(engine, () => Protocol, () => ws.HasCaptured))
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

    /// <summary>
    /// A client's synchronous Close waits until the connection has closed (reading the answer itself when no receive
    /// loop runs); not inside its own hooks, nor on an event loop's thread, where the close may need the loop.
    /// </summary>
    private void WaitClosed()
    {
        var engine = Engine;
        if (engine == null || IsInsideOwnHook || NetCoreServer.Transports.EventLoop.IsLoopThread)
            return;
        var input = _input;
        if (input != null)
        {
            using (Hooks.Enter(engine))
            {
                while (IsConnected && input.Pump(engine, () => Protocol, static () => false))
                {
                }
            }
        }
        engine.Completion.Wait(Ws.CloseTimeout + OptionDisconnectTimeout);
    }

    private protected override void NotifyConnected()
    {
        base.NotifyConnected();
        // Over TLS the request waits for OnHandshaked, as in NetCoreServer's WssClient.
        if (Engine?.Transport.Tls == null)
            BeginUpgrade();
    }

    private protected override void NotifyHandshaked()
    {
        base.NotifyHandshaked();
        BeginUpgrade();
    }

    /// <summary>Writes the upgrade request (default, then OnWsConnecting), puts the answer reader in the slot and sends it.</summary>
    private void BeginUpgrade()
    {
        Volatile.Write(ref _ws, null);
        RandomNumberGenerator.Fill(_nonce);
        var host = Address.Contains(':') ? $"[{Address}]:{Port}" : $"{Address}:{Port}";
        WsClientHandshake.BuildRequest(Request, host, Ws.Path, _nonce, Ws.ToHandshake());
        OnWsConnecting(Request);
        if (Request.Store.BodyStart == 0)
            WsHandshake.EndHead(Request.Store);
        Protocol = new WsClientUpgrade(this, Response);
        Volatile.Write(ref _upgradeState, UpgradePending);
        var timer = new Timer(static s => ((__TWIN__)s!).HandshakeTimedOut(), this, Timeout.Infinite, Timeout.Infinite);
        Interlocked.Exchange(ref _handshakeTimer, timer)?.Dispose();
        timer.Change(Ws.HandshakeTimeout, Timeout.InfiniteTimeSpan);
        Request.Store.Split(out var head, out var body);
        SendMessage(head, body, blocking: false);
    }

    /// <summary>True once when the upgrade under way ends (answered, failed or timed out); the loser of a race does nothing.</summary>
    private bool EndUpgrade()
    {
        if (Interlocked.CompareExchange(ref _upgradeState, UpgradeDone, UpgradePending) != UpgradePending)
            return false;
        Interlocked.Exchange(ref _handshakeTimer, null)?.Dispose();
        return true;
    }

    private void HandshakeTimedOut()
    {
        if (!EndUpgrade())
            return;
        OnWsError($"the WebSocket upgrade was not answered within {Ws.HandshakeTimeout.TotalSeconds:0.###} s");
        Abort(NetCoreServer.DisconnectReason.Timeout);
    }

    void IWsUpgradeClient.UpgradeAnswered(HttpResponse response)
    {
        if (!EndUpgrade())
            return;
        if (!WsClientHandshake.Validate(Request, response, out var result, out var error))
        {
            OnWsError(error);
            DisconnectEngine(NetCoreServer.DisconnectReason.HandshakeFailed);
            return;
        }
        var ws = new WsConnection(this, WsRole.Client, result, Ws);
        Protocol = ws;
        Volatile.Write(ref _ws, ws);
        ws.Start();
        OnWsConnected(response);
    }

    void IWsUpgradeClient.UpgradeFailed(string error)
    {
        if (!EndUpgrade())
            return;
        OnWsError("the answer to the WebSocket upgrade is not valid HTTP: " + error);
        DisconnectEngine(NetCoreServer.DisconnectReason.HandshakeFailed);
    }

    private protected override void NotifyDisconnecting()
    {
        if (EndUpgrade())
            OnWsError("the connection ended before the WebSocket upgrade was answered");
        var ws = Volatile.Read(ref _ws);
        if (ws != null)
        {
            // Frames a hook sent before it called Disconnect go out before the connection closes.
            ws.Flush();
            OnWsDisconnecting();
        }
        base.NotifyDisconnecting();
    }

    private protected override void NotifyDisconnected()
    {
        var ws = Volatile.Read(ref _ws);
        if (ws != null)
            OnWsDisconnected();
        base.NotifyDisconnected();
        ws?.Dispose();
        Interlocked.Exchange(ref _handshakeTimer, null)?.Dispose();
    }
