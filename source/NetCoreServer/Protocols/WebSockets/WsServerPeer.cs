using System;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// The server end of a WebSocket connection, shared by <see cref="WsSession"/> (TCP) and <see cref="WssSession"/>
/// (TLS): it accepts or refuses the upgrade (RFC 6455 §4.2) and puts the framer in the connection's slot. The
/// upgrade runs on the session's receive thread; see <see cref="WsPeer{THost}"/> for the rest.
/// </summary>
internal sealed class WsServerPeer : WsPeer<IWsSessionHost>
{
    public WsServerPeer(IWsSessionHost session)
        : base(session)
    {
    }

    /// <summary>
    /// A request that asks for WebSocket is checked (a bad one is answered 400 or 426 and the connection closes),
    /// OnWsConnecting may refuse it, and the 101 is sent; the framer then replaces HTTP in the connection's slot, so
    /// bytes pipelined after the request are read as frames.
    /// </summary>
    public HttpUpgrade Upgrade(HttpRequest request)
    {
        var kind = WsServerHandshake.Validate(request, out var upgrade, out var status, out var error);
        if (kind == WsUpgradeStatus.NotWebSocket)
            return HttpUpgrade.None;
        var response = Host.Response;
        if (kind == WsUpgradeStatus.Invalid || upgrade == null)
        {
            WsServerHandshake.Reject(response, status, error);
            Host.OnWsError(error);
            return Refuse(response);
        }
        var options = Host.Options;
        var result = WsServerHandshake.Accept(upgrade, response, options.ToHandshake(), endHead: false);
        if (!Host.OnWsConnecting(request, response))
        {
            if (response.Status == 101)
                WsServerHandshake.Reject(response, 403, "the WebSocket upgrade was refused");
            return Refuse(response);
        }
        // Fields the hook added are in; the 101 ends without Content-Length (RFC 9110 §8.6).
        if (response.Status == 101 && response.Store.BodyStart == 0)
            WsHandshake.EndHead(response.Store);
        var ws = new WsConnection(Host, WsRole.Server, result, options);
        Host.Protocol = ws;
        Host.SendUpgrade(response);
        // Not corked with the first frames: NetCoreServer's WsClient drops bytes read together with the 101.
        Host.Engine?.SendHeldNow();
        // Published after the 101 is queued: a multicast or a send from another thread cannot come before it.
        Publish(ws);
        ws.Start();
        Host.Metrics?.WsUpgrade(accepted: true);
        Host.OnWsConnected(request);
        return HttpUpgrade.Switched;
    }

    /// <summary>Raises OnWsDisconnecting for an upgraded connection, after flushing the frames its hooks sent.</summary>
    public void Disconnecting() => RaiseDisconnecting();

    /// <summary>The session is released: the framer gives back what it holds.</summary>
    public void Release() => Connection?.Dispose();

    // Server sessions always run their receive loop, so a blocking receive would never get a message: it fails at once.
    private protected override byte[]? ReceiveMessage()
        => throw new NotSupportedException("A server session receives through its receive loop: messages arrive in OnWsReceived. ReceiveText and ReceiveBinary are for a client connected with Connect().");

    // A server session's Close does not wait: the connection closes when the client answers.
    private protected override void WaitClosed()
    {
    }

    private HttpUpgrade Refuse(HttpResponse response)
    {
        Host.Metrics?.WsUpgrade(accepted: false);
        Host.SendUpgrade(response);
        Host.Disconnect();
        return HttpUpgrade.Refused;
    }
}
