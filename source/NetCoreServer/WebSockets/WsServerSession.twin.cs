using System;
using System.Threading;
using NetCoreServer.Http;
using NetCoreServer.WebSockets;

// twin: NetCoreServer.WsSession NetCoreServer.WssSession
    private readonly WsOptions _wsOptions;

    WsConnection? IWsServerSession.Framer => Volatile.Read(ref _ws);

    /// <summary>Sends the answer to an upgrade request (the 101, or a refusal) like any response, in request order.</summary>
    /// <param name="response">The answer.</param>
    public void SendUpgrade(HttpResponse response) => SendResponseAsync(response);

    /// <summary>
    /// Server sessions always run their receive loop, so a blocking receive would never get a message: it fails at once
    /// instead of returning an empty one. Messages arrive through <see cref="OnWsReceived"/>.
    /// </summary>
    private static byte[]? ReceiveMessage()
        => throw new NotSupportedException("A server session receives through its receive loop: messages arrive in OnWsReceived. ReceiveText and ReceiveBinary are for a client connected with Connect().");

    /// <summary>A server session's Close does not wait: the connection closes when the client answers.</summary>
    private static void WaitClosed()
    {
    }

    /// <summary>
    /// The upgrade (RFC 6455 §4.2): a request that asks for WebSocket is checked (a bad one is answered 400 or 426 and
    /// the connection closes), OnWsConnecting may refuse it, and the 101 is sent; the framer then replaces HTTP in the
    /// connection's slot, so bytes pipelined after the request are read as frames.
    /// </summary>
    private protected override HttpUpgrade UpgradeRequest(HttpRequest request)
    {
        var kind = WsServerHandshake.Validate(request, out var upgrade, out var status, out var error);
        if (kind == WsUpgradeStatus.NotWebSocket)
            return HttpUpgrade.None;
        if (kind == WsUpgradeStatus.Invalid || upgrade == null)
        {
            WsServerHandshake.Reject(Response, status, error);
            OnWsError(error);
            return Refuse();
        }
        var result = WsServerHandshake.Accept(upgrade, Response, _wsOptions.ToHandshake(), endHead: false);
        if (!OnWsConnecting(request, Response))
        {
            if (Response.Status == 101)
                WsServerHandshake.Reject(Response, 403, "the WebSocket upgrade was refused");
            return Refuse();
        }
        // Fields the hook added are in; the 101 ends without Content-Length (RFC 9110 §8.6).
        if (Response.Status == 101 && Response.Store.BodyStart == 0)
            WsHandshake.EndHead(Response.Store);
        var ws = new WsConnection(this, WsRole.Server, result, _wsOptions);
        Protocol = ws;
        SendUpgrade(Response);
        // Not corked with the first frames: NetCoreServer's WsClient drops bytes read together with the 101.
        Engine?.SendHeldNow();
        // Published after the 101 is queued: a multicast or a send from another thread cannot come before it.
        Volatile.Write(ref _ws, ws);
        ws.Start();
        OnWsConnected(request);
        return HttpUpgrade.Switched;
    }

    private HttpUpgrade Refuse()
    {
        SendUpgrade(Response);
        Disconnect();
        return HttpUpgrade.Refused;
    }

    private protected override void NotifyDisconnecting()
    {
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
        if (Volatile.Read(ref _ws) != null)
            OnWsDisconnected();
        base.NotifyDisconnected();
    }

    private protected override void NotifyReleased()
    {
        Volatile.Read(ref _ws)?.Dispose();
        base.NotifyReleased();
    }
