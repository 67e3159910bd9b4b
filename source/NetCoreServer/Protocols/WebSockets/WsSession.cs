using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Engine;
using NetCoreServer.Protocols;
using NetCoreServer.Protocols.Http;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer;

/// <summary>
/// One connection of a <see cref="WsServer"/> (TCP): HTTP until a client asks to upgrade, then WebSocket on the same
/// connection. Override the OnWs hooks (<see cref="OnWsConnected(HttpRequest)"/>, <see cref="OnWsReceived"/>, ...) and
/// send with <see cref="SendTextAsync(ReadOnlySpan{byte})"/> and its siblings. Hook order: OnConnecting, OnConnected,
/// OnReceivedRequestHeader, OnWsConnecting, (101 sent) OnWsConnected, OnWsReceived/OnWsPing/OnWsPong/OnWsClose,
/// OnWsDisconnecting, OnDisconnecting, OnWsDisconnected, OnDisconnected. <see cref="WssSession"/> is the same over TLS.
/// </summary>
public partial class WsSession : HttpSession, IWebSocket, IWsSessionHost, IWsServerSession
{
    private readonly WsServerPeer _ws;

    /// <summary>Creates a session for <paramref name="server"/>.</summary>
    /// <param name="server">The server that accepted the connection.</param>
    public WsSession(WsServer server)
        : base(server) => _ws = new WsServerPeer(this);

    /// <summary>Sends the answer to an upgrade request (the 101, or a refusal) like any response, in request order.</summary>
    /// <param name="response">The answer.</param>
    public void SendUpgrade(HttpResponse response) => SendResponseAsync(response);

    private protected override HttpUpgrade UpgradeRequest(HttpRequest request) => _ws.Upgrade(request);

    private protected override void NotifyDisconnecting()
    {
        _ws.Disconnecting();
        base.NotifyDisconnecting();
    }

    private protected override void NotifyDisconnected()
    {
        _ws.Disconnected();
        base.NotifyDisconnected();
    }

    private protected override void NotifyReleased()
    {
        _ws.Release();
        base.NotifyReleased();
    }

    WsConnection? IWsServerSession.Framer => _ws.Connection;

    WsOptions IWsSessionHost.Options => ((WsServer)Owner).Ws;

    /// <summary>
    /// Client: fills the upgrade request before it is sent, on the thread that completed the connect (after the TLS
    /// handshake for wss). Not raised for server sessions.
    /// </summary>
    /// <remarks>
    /// The request already holds a valid default (GET <see cref="WsOptions.Path"/>, Host, a fresh Sec-WebSocket-Key,
    /// version 13, the subprotocols and deflate offer of the options): change it or write your own (NetCoreServer style,
    /// with <c>Convert.ToBase64String(WsNonce)</c> as the key). The answer is checked against what was actually sent.
    /// </remarks>
    /// <param name="request">The upgrade request (reused for the connection's life).</param>
    public virtual void OnWsConnecting(HttpRequest request)
    {
    }

    /// <summary>
    /// Client: the server accepted the upgrade (101, accept key checked); frames may be sent. Runs on the receive
    /// thread (or the thread of a synchronous Connect), before any OnWsReceived.
    /// </summary>
    /// <param name="response">The 101 response; valid during the call.</param>
    public virtual void OnWsConnected(HttpResponse response)
    {
    }

    /// <summary>
    /// Server: a valid upgrade request arrived (after OnReceivedRequestHeader), on the session's receive thread. Return
    /// false to refuse it; <paramref name="response"/> holds the prepared 101, to which fields may be added.
    /// </summary>
    /// <remarks>
    /// A refusal sends the response as it is if you gave it another status (e.g. <c>response.MakeErrorResponse(401)</c>),
    /// else 403, and the connection closes.
    /// </remarks>
    /// <param name="request">The upgrade request; valid during the call.</param>
    /// <param name="response">The answer that will be sent.</param>
    /// <returns>True to accept the upgrade (the default).</returns>
    public virtual bool OnWsConnecting(HttpRequest request, HttpResponse response) => true;

    /// <summary>
    /// Server: the 101 is queued and the connection speaks WebSocket now; frames sent from here follow it. Runs on the
    /// receive thread, before any OnWsReceived (bytes that came right after the request are decoded after this returns).
    /// </summary>
    /// <param name="request">The upgrade request; valid during the call.</param>
    public virtual void OnWsConnected(HttpRequest request)
    {
    }

    /// <summary>
    /// An upgraded connection starts disconnecting, on the thread that started it, just before OnDisconnecting. During a
    /// graceful disconnect frames may still be queued from here.
    /// </summary>
    public virtual void OnWsDisconnecting()
    {
    }

    /// <summary>An upgraded connection has closed, just before OnDisconnected and on its thread; no other WebSocket hook follows.</summary>
    public virtual void OnWsDisconnected()
    {
    }

    /// <summary>
    /// A whole message arrived (fragments reassembled, decompressed, text checked as UTF-8), on the receive thread;
    /// calls never overlap. The buffer is pooled: copy what you keep. Its size is at most
    /// <see cref="WsOptions.MaxMessageSize"/>.
    /// </summary>
    /// <param name="buffer">Buffer holding the message; valid during the call only.</param>
    /// <param name="offset">Offset of the message.</param>
    /// <param name="size">Size of the message.</param>
    public virtual void OnWsReceived(byte[] buffer, long offset, long size)
    {
    }

    /// <summary>
    /// The peer's close frame arrived, on the receive thread. The default does nothing: after this returns, the same
    /// status and reason are sent back (unless a close frame went out already, e.g. from a <c>Close</c> call here, or
    /// because this side started the close) and the connection closes.
    /// </summary>
    /// <param name="buffer">Buffer holding the UTF-8 reason; valid during the call only.</param>
    /// <param name="offset">Offset of the reason.</param>
    /// <param name="size">Size of the reason (0 when none).</param>
    /// <param name="status">The status; 1005 when the frame carried none.</param>
    public virtual void OnWsClose(byte[] buffer, long offset, long size, int status = 1000)
    {
    }

    /// <summary>A ping arrived, on the receive thread. The default answers with a pong carrying the same bytes (RFC 6455 §5.5.2); an override that does not call it answers nothing.</summary>
    /// <param name="buffer">Buffer holding the payload; valid during the call only.</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload (at most 125).</param>
    public virtual void OnWsPing(byte[] buffer, long offset, long size) => SendPongAsync(buffer, offset, size);

    /// <summary>A pong arrived, on the receive thread.</summary>
    /// <param name="buffer">Buffer holding the payload; valid during the call only.</param>
    /// <param name="offset">Offset of the payload.</param>
    /// <param name="size">Size of the payload.</param>
    public virtual void OnWsPong(byte[] buffer, long offset, long size)
    {
    }

    /// <summary>
    /// The WebSocket protocol failed: a frame broke RFC 6455 (the connection then closes with 1002, 1007 or 1009), the
    /// handshake was refused or timed out, or keep-alive found the peer gone. Runs on the receive thread, or on a timer
    /// thread for timeouts. The default raises <c>OnError(SocketError.SocketError)</c>, as NetCoreServer does.
    /// </summary>
    /// <param name="error">What went wrong (never the peer's bytes).</param>
    public virtual void OnWsError(string error) => OnError(SocketError.SocketError);

    /// <summary>A socket error on the WebSocket connection, on the thread that met it; the default raises <c>OnError</c>.</summary>
    /// <param name="error">The socket error.</param>
    public virtual void OnWsError(SocketError error) => OnError(error);

    /// <summary>
    /// Blocking receive of the next whole text message, for a client connected with the synchronous <c>Connect</c>
    /// whose receive loop is not running (OnWsReceived is raised too). Returns "" when not upgraded, when the
    /// connection closed first, or while the receive loop runs. A client called on an event loop's thread hands
    /// the loop to another thread before it waits.
    /// </summary>
    /// <returns>The message as text.</returns>
    /// <exception cref="NotSupportedException">Called on a server session, whose messages arrive through OnWsReceived.</exception>
    public string ReceiveText() => _ws.ReceiveText();

    /// <summary>Blocking receive of the next whole message as bytes; see <see cref="ReceiveText"/>.</summary>
    /// <returns>The message; empty when none was received.</returns>
    /// <exception cref="NotSupportedException">Called on a server session, whose messages arrive through OnWsReceived.</exception>
    public NetCoreServer.Buffer ReceiveBinary() => _ws.ReceiveBinary();

    void IWsConnectionHost.RaiseReceived(byte[] buffer, long offset, long size) => OnWsReceived(buffer, offset, size);

    void IWsConnectionHost.RaisePing(byte[] buffer, long offset, long size) => OnWsPing(buffer, offset, size);

    void IWsConnectionHost.RaisePong(byte[] buffer, long offset, long size) => OnWsPong(buffer, offset, size);

    void IWsConnectionHost.RaiseClose(byte[] buffer, long offset, long size, int status) => OnWsClose(buffer, offset, size, status);

    void IWsConnectionHost.RaiseError(string error) => OnWsError(error);

    bool IWsConnectionHost.SendFrame(ref WsQueuedFrame frame) => SendWritten(ref frame);

    bool IWsConnectionHost.WaitSent() => _ws.WaitSent();

    void IWsConnectionHost.Disconnect(NetCoreServer.DisconnectReason reason) => DisconnectEngine(reason);

    void IWsConnectionHost.Abort(NetCoreServer.DisconnectReason reason) => Engine?.Abort(reason);

    /// <summary>The subprotocol the upgrade settled on (Sec-WebSocket-Protocol), or null.</summary>
    public string? WsSubprotocol => _ws.Subprotocol;

    /// <summary>True while the connection is upgraded and no close frame has been sent or received.</summary>
    public bool IsWsOpen => _ws.IsOpen;


    /// <summary>
    /// Closes the WebSocket: sends a close frame and waits until it is handed to the socket (see <see cref="SendClose(int, ReadOnlySpan{byte})"/>), then the connection closes
    /// when the peer answers with its close frame or <see cref="WsOptions.CloseTimeout"/> passes. Before the upgrade it
    /// disconnects at once. A client called outside its own hooks waits until the connection has closed and its
    /// OnDisconnected has run. On an event loop's thread the loop is handed to another thread before it waits.
    /// </summary>
    /// <param name="status">The close status (1000 normal, 1001 going away, 3000-4999 your own).</param>
    /// <param name="buffer">The UTF-8 reason (cut to 123 bytes).</param>
    /// <returns>True when the close started; false when not connected.</returns>
    public virtual bool Close(int status, ReadOnlySpan<byte> buffer) => _ws.Close(status, buffer);

    /// <summary>Closes with status 1000 (normal); see <see cref="Close(int, ReadOnlySpan{byte})"/>.</summary>
    /// <returns>True when the close started.</returns>
    public virtual bool Close() => Close(1000, ReadOnlySpan<byte>.Empty);

    /// <summary>Closes with a status and no reason; see <see cref="Close(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool Close(int status) => Close(status, ReadOnlySpan<byte>.Empty);

    /// <summary>Closes with a status and a reason; see <see cref="Close(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="text">The reason, sent as UTF-8.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool Close(int status, string text) => Close(status, text.AsSpan());

    /// <summary>Closes with a status and a reason; see <see cref="Close(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="text">The reason, sent as UTF-8.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool Close(int status, ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return Close(status, bytes.Span);
    }

    /// <summary>Closes with a status and a reason; see <see cref="Close(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="buffer">The UTF-8 reason.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool Close(int status, byte[] buffer) => Close(status, buffer.AsSpan());

    /// <summary>Closes with a status and a reason; see <see cref="Close(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="buffer">Buffer holding the UTF-8 reason.</param>
    /// <param name="offset">Offset of the reason.</param>
    /// <param name="size">Size of the reason.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool Close(int status, byte[] buffer, long offset, long size) => Close(status, buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>
    /// Closes the WebSocket: queues a close frame (see <see cref="SendClose(int, ReadOnlySpan{byte})"/>), then the connection closes
    /// when the peer answers with its close frame or <see cref="WsOptions.CloseTimeout"/> passes. Before the upgrade it
    /// disconnects at once. A session returns at once. A client, as NetCoreServer's, returns once the connection has
    /// closed and its OnDisconnected has run, except inside its own hooks (on an event loop's thread the loop is handed on first).
    /// </summary>
    /// <param name="status">The close status (1000 normal, 1001 going away, 3000-4999 your own).</param>
    /// <param name="buffer">The UTF-8 reason (cut to 123 bytes).</param>
    /// <returns>True when the close started; false when not connected.</returns>
    public virtual bool CloseAsync(int status, ReadOnlySpan<byte> buffer) => _ws.CloseAsync(status, buffer);

    /// <summary>Closes with status 1000 (normal); see <see cref="CloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <returns>True when the close started.</returns>
    public virtual bool CloseAsync() => CloseAsync(1000, ReadOnlySpan<byte>.Empty);

    /// <summary>Closes with a status and no reason; see <see cref="CloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool CloseAsync(int status) => CloseAsync(status, ReadOnlySpan<byte>.Empty);

    /// <summary>Closes with a status and a reason; see <see cref="CloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="text">The reason, sent as UTF-8.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool CloseAsync(int status, string text) => CloseAsync(status, text.AsSpan());

    /// <summary>Closes with a status and a reason; see <see cref="CloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="text">The reason, sent as UTF-8.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool CloseAsync(int status, ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return CloseAsync(status, bytes.Span);
    }

    /// <summary>Closes with a status and a reason; see <see cref="CloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="buffer">The UTF-8 reason.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool CloseAsync(int status, byte[] buffer) => CloseAsync(status, buffer.AsSpan());

    /// <summary>Closes with a status and a reason; see <see cref="CloseAsync(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="buffer">Buffer holding the UTF-8 reason.</param>
    /// <param name="offset">Offset of the reason.</param>
    /// <param name="size">Size of the reason.</param>
    /// <returns>True when the close started.</returns>
    public virtual bool CloseAsync(int status, byte[] buffer, long offset, long size) => CloseAsync(status, buffer.AsSpan(checked((int)offset), checked((int)size)));

    StreamSessionEngine? IWsPeerHost.Engine => Engine;

    IStreamProtocol? IWsPeerHost.Protocol
    {
        get => Protocol;
        set => Protocol = value;
    }

    bool IWsPeerHost.DisconnectEngine(NetCoreServer.DisconnectReason reason) => DisconnectEngine(reason);
}
