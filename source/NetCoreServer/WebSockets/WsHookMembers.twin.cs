using System;
using System.Net.Sockets;
using System.Text;
using NetCoreServer.WebSockets;

// twin: NetCoreServer.WsSession NetCoreServer.WssSession NetCoreServer.WsClient NetCoreServer.WssClient
    /// <summary>
    /// Client: fills the upgrade request, on the thread that completed the connect (after the TLS handshake for wss),
    /// before it is sent. The request already holds a valid default (GET <see cref="WsOptions.Path"/>, Host, a fresh
    /// Sec-WebSocket-Key, version 13, the subprotocols and deflate offer of the options): change it or write your own
    /// (NetCoreServer style, with <c>Convert.ToBase64String(WsNonce)</c> as the key). The answer is checked against
    /// what was actually sent. Not raised for server sessions.
    /// </summary>
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
    /// Server: a valid upgrade request arrived (after OnReceivedRequestHeader), on the session's receive thread.
    /// <paramref name="response"/> holds the prepared 101 (accept key, the chosen subprotocol and extensions); add
    /// fields to it here. Return false to refuse: the response is sent as it is if you gave it another status
    /// (e.g. <c>response.MakeErrorResponse(401)</c>), else 403, and the connection closes.
    /// </summary>
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

    /// <summary>An upgraded connection has closed, just before OnDisconnected; no other WebSocket hook follows.</summary>
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

    /// <summary>A socket error on the WebSocket connection; the default raises <c>OnError</c>.</summary>
    /// <param name="error">The socket error.</param>
    public virtual void OnWsError(SocketError error) => OnError(error);

    /// <summary>
    /// Blocking receive of the next whole text message, for a client connected with the synchronous <c>Connect</c>
    /// whose receive loop is not running (OnWsReceived is raised too). Returns "" when not upgraded, when the
    /// connection closed first, or while the receive loop runs. A client called on an event loop's thread throws
    /// instead of waiting there: use <c>ReceiveAsync</c>.
    /// </summary>
    /// <returns>The message as text.</returns>
    /// <exception cref="NotSupportedException">Called on a server session, whose messages arrive through OnWsReceived.</exception>
    /// <exception cref="InvalidOperationException">A client called on an event loop's thread.</exception>
    public string ReceiveText()
    {
        var message = ReceiveMessage();
        return message == null ? string.Empty : Encoding.UTF8.GetString(message);
    }

    /// <summary>Blocking receive of the next whole message as bytes; see <see cref="ReceiveText"/>.</summary>
    /// <returns>The message; empty when none was received.</returns>
    /// <exception cref="NotSupportedException">Called on a server session, whose messages arrive through OnWsReceived.</exception>
    public NetCoreServer.Buffer ReceiveBinary()
    {
        var message = ReceiveMessage();
        return message == null ? new NetCoreServer.Buffer() : new NetCoreServer.Buffer(message);
    }

    void IWsConnectionHost.RaiseReceived(byte[] buffer, long offset, long size) => OnWsReceived(buffer, offset, size);

    void IWsConnectionHost.RaisePing(byte[] buffer, long offset, long size) => OnWsPing(buffer, offset, size);

    void IWsConnectionHost.RaisePong(byte[] buffer, long offset, long size) => OnWsPong(buffer, offset, size);

    void IWsConnectionHost.RaiseClose(byte[] buffer, long offset, long size, int status) => OnWsClose(buffer, offset, size, status);

    void IWsConnectionHost.RaiseError(string error) => OnWsError(error);

    bool IWsConnectionHost.SendFrame(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body) => SendMessage(head, body, blocking: false);

    long IWsConnectionHost.SendRoom()
    {
        var limit = OptionSendBufferLimit;
        return limit <= 0 ? long.MaxValue : limit - BytesPending - BytesSending;
    }

    bool IWsConnectionHost.WaitSent()
    {
        var engine = Engine;
        if (engine == null)
            return false;
        // Waiting inside OnSent/OnEmpty waits for the send loop itself; on an event loop's thread, for the loop (or one
        // that waits on it): the frame is queued, as SendAsync would, and the send counts as made.
        if (NetCoreServer.Core.Hooks.Inside(engine, NetCoreServer.Core.HookKind.Sending) || NetCoreServer.Transports.EventLoop.IsLoopThread)
            return true;
        return engine.Flush().GetAwaiter().GetResult();
    }

    void IWsConnectionHost.Disconnect(NetCoreServer.DisconnectReason reason) => DisconnectEngine(reason);

    void IWsConnectionHost.Abort(NetCoreServer.DisconnectReason reason) => Engine?.Abort(reason);
