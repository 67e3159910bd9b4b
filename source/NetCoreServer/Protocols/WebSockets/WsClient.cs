using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Engine;
using NetCoreServer.Protocols;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer;

/// <summary>
/// A WebSocket client over TCP or a Unix domain socket file: <see cref="ConnectAsync"/> (or the blocking <see cref="Connect"/>) connects and
/// upgrades; override <see cref="OnWsConnected(HttpResponse)"/> and <see cref="OnWsReceived"/>, send with
/// <see cref="SendTextAsync(ReadOnlySpan{byte})"/> and its siblings (frames are masked with a fresh random key each),
/// and end with <see cref="CloseAsync(int, ReadOnlySpan{byte})"/>. Hook order: OnConnecting, OnConnected,
/// OnWsConnecting, (upgrade) OnWsConnected, OnWsReceived/OnWsPing/OnWsPong/OnWsClose, OnWsDisconnecting,
/// OnDisconnecting, OnWsDisconnected, OnDisconnected.
/// </summary>
public class WsClient : HttpClient, IWebSocket, IWsClientHost
{
    private readonly WsClientPeer _ws;

    /// <summary>Creates a client for an IP address and port.</summary>
    /// <param name="address">Server address.</param>
    /// <param name="port">Server port.</param>
    public WsClient(IPAddress address, int port)
        : base(address, port)
        => _ws = new WsClientPeer(this);

    /// <summary>Creates a client for an IP address literal or a host name, and a port.</summary>
    /// <param name="address">Server address or host name.</param>
    /// <param name="port">Server port.</param>
    public WsClient(string address, int port)
        : base(address, port)
        => _ws = new WsClientPeer(this);

    /// <summary>Creates a client for a host name endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public WsClient(DnsEndPoint endpoint)
        : base(endpoint)
        => _ws = new WsClientPeer(this);

    /// <summary>Creates a client for an IP endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public WsClient(IPEndPoint endpoint)
        : base(endpoint)
        => _ws = new WsClientPeer(this);

    /// <summary>Creates a client for a server's Unix domain socket file; the upgrade request carries <c>Host: localhost</c>.</summary>
    /// <param name="endpoint">The server's socket file.</param>
    public WsClient(UnixDomainSocketEndPoint endpoint)
        : base(endpoint)
        => _ws = new WsClientPeer(this);

    /// <summary>WebSocket settings (handshake and close timeouts, message size limit, keep-alive, deflate, subprotocols, path).</summary>
    public WsOptions Ws => _ws.Options;

    /// <summary>The random 16 bytes of the current upgrade; its base64 is the Sec-WebSocket-Key (fresh per connection).</summary>
    public byte[] WsNonce => _ws.Nonce;

    /// <summary>
    /// Connects, then performs the upgrade before returning: the request is sent and the answer read here (bounded by
    /// <see cref="WsOptions.HandshakeTimeout"/>). As in NetCoreServer no receive loop starts: call
    /// <see cref="ReceiveAsync"/> for OnWsReceived calls, or <see cref="ReceiveText"/>/<see cref="ReceiveBinary"/>. On an
    /// event loop's thread the loop is handed to another thread first (see <see cref="EventLoops.HandoffThreshold"/>).
    /// </summary>
    /// <returns>True when connected and upgraded.</returns>
    public override bool Connect()
    {
        _ws.PrepareBlockingConnect();
        return base.Connect() && _ws.FinishBlockingConnect();
    }

    /// <summary>
    /// Starts connecting and returns at once; the upgrade follows on the receive loop (OnWsConnected, or OnWsError and a
    /// disconnect when it fails or takes longer than <see cref="WsOptions.HandshakeTimeout"/>).
    /// </summary>
    /// <returns>True when the attempt started.</returns>
    public override bool ConnectAsync()
    {
        _ws.ForgetBlockingInput();
        return base.ConnectAsync();
    }

    /// <summary>Starts the receive loop after a synchronous Connect; bytes the blocking calls read ahead are handled first.</summary>
    public override void ReceiveAsync()
    {
        _ws.DrainBlockingInput();
        base.ReceiveAsync();
    }

    private protected override void NotifyConnected()
    {
        base.NotifyConnected();
        _ws.Connected();
    }

    private protected override void NotifyHandshaked()
    {
        base.NotifyHandshaked();
        _ws.Handshaked();
    }

    private protected override void NotifyDisconnecting()
    {
        _ws.Disconnecting();
        base.NotifyDisconnecting();
    }

    private protected override void NotifyDisconnected()
    {
        var ended = _ws.Disconnected();
        base.NotifyDisconnected();
        _ws.Release(ended);
    }

    HttpResponse IWsClientHost.Response => Response;

    bool IWsClientHost.IsInsideOwnHook => IsInsideOwnHook;

    void IWsClientHost.WaitDisconnected(StreamSessionEngine engine, TimeSpan closeWait) => WaitDisconnected(engine, closeWait);

    bool IWsClientHost.SendMessage(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, bool blocking) => SendMessage(head, body, blocking);

    /// <inheritdoc cref="WsSession.OnWsConnecting(HttpRequest)"/>
    public virtual void OnWsConnecting(HttpRequest request)
    {
    }

    /// <inheritdoc cref="WsSession.OnWsConnected(HttpResponse)"/>
    public virtual void OnWsConnected(HttpResponse response)
    {
    }

    /// <inheritdoc cref="WsSession.OnWsConnecting(HttpRequest, HttpResponse)"/>
    public virtual bool OnWsConnecting(HttpRequest request, HttpResponse response) => true;

    /// <inheritdoc cref="WsSession.OnWsConnected(HttpRequest)"/>
    public virtual void OnWsConnected(HttpRequest request)
    {
    }

    /// <inheritdoc cref="WsSession.OnWsDisconnecting()"/>
    public virtual void OnWsDisconnecting()
    {
    }

    /// <inheritdoc cref="WsSession.OnWsDisconnected()"/>
    public virtual void OnWsDisconnected()
    {
    }

    /// <inheritdoc cref="WsSession.OnWsReceived(byte[], long, long)"/>
    public virtual void OnWsReceived(byte[] buffer, long offset, long size)
    {
    }

    /// <inheritdoc cref="WsSession.OnWsClose(byte[], long, long, int)"/>
    public virtual void OnWsClose(byte[] buffer, long offset, long size, int status = 1000)
    {
    }

    /// <inheritdoc cref="WsSession.OnWsPing(byte[], long, long)"/>
    public virtual void OnWsPing(byte[] buffer, long offset, long size) => SendPongAsync(buffer, offset, size);

    /// <inheritdoc cref="WsSession.OnWsPong(byte[], long, long)"/>
    public virtual void OnWsPong(byte[] buffer, long offset, long size)
    {
    }

    /// <inheritdoc cref="WsSession.OnWsError(string)"/>
    public virtual void OnWsError(string error) => OnError(SocketError.SocketError);

    /// <inheritdoc cref="WsSession.OnWsError(SocketError)"/>
    public virtual void OnWsError(SocketError error) => OnError(error);

    /// <inheritdoc cref="WsSession.ReceiveText()"/>
    public string ReceiveText() => _ws.ReceiveText();

    /// <inheritdoc cref="WsSession.ReceiveBinary()"/>
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

    /// <inheritdoc cref="WsSession.WsSubprotocol"/>
    public string? WsSubprotocol => _ws.Subprotocol;

    /// <inheritdoc cref="WsSession.IsWsOpen"/>
    public bool IsWsOpen => _ws.IsOpen;

    /// <inheritdoc cref="WsSession.SendText(ReadOnlySpan{byte})"/>
    public long SendText(ReadOnlySpan<byte> buffer) => _ws.Send(WsOpcode.Text, buffer);

    /// <inheritdoc cref="WsSession.SendText(string)"/>
    public long SendText(string text) => SendText(text.AsSpan());

    /// <inheritdoc cref="WsSession.SendText(ReadOnlySpan{char})"/>
    public long SendText(ReadOnlySpan<char> text) => _ws.Send(WsOpcode.Text, text);

    /// <inheritdoc cref="WsSession.SendText(byte[])"/>
    public long SendText(byte[] buffer) => SendText(buffer.AsSpan());

    /// <inheritdoc cref="WsSession.SendText(byte[], long, long)"/>
    public long SendText(byte[] buffer, long offset, long size) => SendText(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="WsSession.SendTextAsync(ReadOnlySpan{byte})"/>
    public bool SendTextAsync(ReadOnlySpan<byte> buffer) => _ws.SendAsync(WsOpcode.Text, buffer);

    /// <inheritdoc cref="WsSession.SendTextAsync(string)"/>
    public bool SendTextAsync(string text) => SendTextAsync(text.AsSpan());

    /// <inheritdoc cref="WsSession.SendTextAsync(ReadOnlySpan{char})"/>
    public bool SendTextAsync(ReadOnlySpan<char> text) => _ws.SendAsync(WsOpcode.Text, text);

    /// <inheritdoc cref="WsSession.SendTextAsync(byte[])"/>
    public bool SendTextAsync(byte[] buffer) => SendTextAsync(buffer.AsSpan());

    /// <inheritdoc cref="WsSession.SendTextAsync(byte[], long, long)"/>
    public bool SendTextAsync(byte[] buffer, long offset, long size) => SendTextAsync(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="WsSession.SendBinary(ReadOnlySpan{byte})"/>
    public long SendBinary(ReadOnlySpan<byte> buffer) => _ws.Send(WsOpcode.Binary, buffer);

    /// <inheritdoc cref="WsSession.SendBinary(string)"/>
    public long SendBinary(string text) => SendBinary(text.AsSpan());

    /// <inheritdoc cref="WsSession.SendBinary(ReadOnlySpan{char})"/>
    public long SendBinary(ReadOnlySpan<char> text) => _ws.Send(WsOpcode.Binary, text);

    /// <inheritdoc cref="WsSession.SendBinary(byte[])"/>
    public long SendBinary(byte[] buffer) => SendBinary(buffer.AsSpan());

    /// <inheritdoc cref="WsSession.SendBinary(byte[], long, long)"/>
    public long SendBinary(byte[] buffer, long offset, long size) => SendBinary(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="WsSession.SendBinaryAsync(ReadOnlySpan{byte})"/>
    public bool SendBinaryAsync(ReadOnlySpan<byte> buffer) => _ws.SendAsync(WsOpcode.Binary, buffer);

    /// <inheritdoc cref="WsSession.SendBinaryAsync(string)"/>
    public bool SendBinaryAsync(string text) => SendBinaryAsync(text.AsSpan());

    /// <inheritdoc cref="WsSession.SendBinaryAsync(ReadOnlySpan{char})"/>
    public bool SendBinaryAsync(ReadOnlySpan<char> text) => _ws.SendAsync(WsOpcode.Binary, text);

    /// <inheritdoc cref="WsSession.SendBinaryAsync(byte[])"/>
    public bool SendBinaryAsync(byte[] buffer) => SendBinaryAsync(buffer.AsSpan());

    /// <inheritdoc cref="WsSession.SendBinaryAsync(byte[], long, long)"/>
    public bool SendBinaryAsync(byte[] buffer, long offset, long size) => SendBinaryAsync(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="WsSession.SendPing(ReadOnlySpan{byte})"/>
    public long SendPing(ReadOnlySpan<byte> buffer) => _ws.Send(WsOpcode.Ping, buffer);

    /// <inheritdoc cref="WsSession.SendPing(string)"/>
    public long SendPing(string text) => SendPing(text.AsSpan());

    /// <inheritdoc cref="WsSession.SendPing(ReadOnlySpan{char})"/>
    public long SendPing(ReadOnlySpan<char> text) => _ws.Send(WsOpcode.Ping, text);

    /// <inheritdoc cref="WsSession.SendPing(byte[])"/>
    public long SendPing(byte[] buffer) => SendPing(buffer.AsSpan());

    /// <inheritdoc cref="WsSession.SendPing(byte[], long, long)"/>
    public long SendPing(byte[] buffer, long offset, long size) => SendPing(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="WsSession.SendPingAsync(ReadOnlySpan{byte})"/>
    public bool SendPingAsync(ReadOnlySpan<byte> buffer) => _ws.SendAsync(WsOpcode.Ping, buffer);

    /// <inheritdoc cref="WsSession.SendPingAsync(string)"/>
    public bool SendPingAsync(string text) => SendPingAsync(text.AsSpan());

    /// <inheritdoc cref="WsSession.SendPingAsync(ReadOnlySpan{char})"/>
    public bool SendPingAsync(ReadOnlySpan<char> text) => _ws.SendAsync(WsOpcode.Ping, text);

    /// <inheritdoc cref="WsSession.SendPingAsync(byte[])"/>
    public bool SendPingAsync(byte[] buffer) => SendPingAsync(buffer.AsSpan());

    /// <inheritdoc cref="WsSession.SendPingAsync(byte[], long, long)"/>
    public bool SendPingAsync(byte[] buffer, long offset, long size) => SendPingAsync(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="WsSession.SendPong(ReadOnlySpan{byte})"/>
    public long SendPong(ReadOnlySpan<byte> buffer) => _ws.Send(WsOpcode.Pong, buffer);

    /// <inheritdoc cref="WsSession.SendPong(string)"/>
    public long SendPong(string text) => SendPong(text.AsSpan());

    /// <inheritdoc cref="WsSession.SendPong(ReadOnlySpan{char})"/>
    public long SendPong(ReadOnlySpan<char> text) => _ws.Send(WsOpcode.Pong, text);

    /// <inheritdoc cref="WsSession.SendPong(byte[])"/>
    public long SendPong(byte[] buffer) => SendPong(buffer.AsSpan());

    /// <inheritdoc cref="WsSession.SendPong(byte[], long, long)"/>
    public long SendPong(byte[] buffer, long offset, long size) => SendPong(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="WsSession.SendPongAsync(ReadOnlySpan{byte})"/>
    public bool SendPongAsync(ReadOnlySpan<byte> buffer) => _ws.SendAsync(WsOpcode.Pong, buffer);

    /// <inheritdoc cref="WsSession.SendPongAsync(string)"/>
    public bool SendPongAsync(string text) => SendPongAsync(text.AsSpan());

    /// <inheritdoc cref="WsSession.SendPongAsync(ReadOnlySpan{char})"/>
    public bool SendPongAsync(ReadOnlySpan<char> text) => _ws.SendAsync(WsOpcode.Pong, text);

    /// <inheritdoc cref="WsSession.SendPongAsync(byte[])"/>
    public bool SendPongAsync(byte[] buffer) => SendPongAsync(buffer.AsSpan());

    /// <inheritdoc cref="WsSession.SendPongAsync(byte[], long, long)"/>
    public bool SendPongAsync(byte[] buffer, long offset, long size) => SendPongAsync(buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="WsSession.SendClose(int, ReadOnlySpan{byte})"/>
    public long SendClose(int status, ReadOnlySpan<byte> buffer) => _ws.SendClose(status, buffer);

    /// <inheritdoc cref="WsSession.SendClose(int, string)"/>
    public long SendClose(int status, string text) => SendClose(status, text.AsSpan());

    /// <inheritdoc cref="WsSession.SendClose(int, ReadOnlySpan{char})"/>
    public long SendClose(int status, ReadOnlySpan<char> text) => _ws.SendClose(status, text);

    /// <inheritdoc cref="WsSession.SendClose(int, byte[])"/>
    public long SendClose(int status, byte[] buffer) => SendClose(status, buffer.AsSpan());

    /// <inheritdoc cref="WsSession.SendClose(int, byte[], long, long)"/>
    public long SendClose(int status, byte[] buffer, long offset, long size) => SendClose(status, buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="WsSession.SendCloseAsync(int, ReadOnlySpan{byte})"/>
    public bool SendCloseAsync(int status, ReadOnlySpan<byte> buffer) => _ws.SendCloseAsync(status, buffer);

    /// <inheritdoc cref="WsSession.SendCloseAsync(int, string)"/>
    public bool SendCloseAsync(int status, string text) => SendCloseAsync(status, text.AsSpan());

    /// <inheritdoc cref="WsSession.SendCloseAsync(int, ReadOnlySpan{char})"/>
    public bool SendCloseAsync(int status, ReadOnlySpan<char> text) => _ws.SendCloseAsync(status, text);

    /// <inheritdoc cref="WsSession.SendCloseAsync(int, byte[])"/>
    public bool SendCloseAsync(int status, byte[] buffer) => SendCloseAsync(status, buffer.AsSpan());

    /// <inheritdoc cref="WsSession.SendCloseAsync(int, byte[], long, long)"/>
    public bool SendCloseAsync(int status, byte[] buffer, long offset, long size) => SendCloseAsync(status, buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="WsSession.Close(int, ReadOnlySpan{byte})"/>
    public virtual bool Close(int status, ReadOnlySpan<byte> buffer) => _ws.Close(status, buffer);

    /// <inheritdoc cref="WsSession.Close()"/>
    public virtual bool Close() => Close(1000, ReadOnlySpan<byte>.Empty);

    /// <inheritdoc cref="WsSession.Close(int)"/>
    public virtual bool Close(int status) => Close(status, ReadOnlySpan<byte>.Empty);

    /// <inheritdoc cref="WsSession.Close(int, string)"/>
    public virtual bool Close(int status, string text) => Close(status, text.AsSpan());

    /// <inheritdoc cref="WsSession.Close(int, ReadOnlySpan{char})"/>
    public virtual bool Close(int status, ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return Close(status, bytes.Span);
    }

    /// <inheritdoc cref="WsSession.Close(int, byte[])"/>
    public virtual bool Close(int status, byte[] buffer) => Close(status, buffer.AsSpan());

    /// <inheritdoc cref="WsSession.Close(int, byte[], long, long)"/>
    public virtual bool Close(int status, byte[] buffer, long offset, long size) => Close(status, buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <inheritdoc cref="WsSession.CloseAsync(int, ReadOnlySpan{byte})"/>
    public virtual bool CloseAsync(int status, ReadOnlySpan<byte> buffer) => _ws.CloseAsync(status, buffer);

    /// <inheritdoc cref="WsSession.CloseAsync()"/>
    public virtual bool CloseAsync() => CloseAsync(1000, ReadOnlySpan<byte>.Empty);

    /// <inheritdoc cref="WsSession.CloseAsync(int)"/>
    public virtual bool CloseAsync(int status) => CloseAsync(status, ReadOnlySpan<byte>.Empty);

    /// <inheritdoc cref="WsSession.CloseAsync(int, string)"/>
    public virtual bool CloseAsync(int status, string text) => CloseAsync(status, text.AsSpan());

    /// <inheritdoc cref="WsSession.CloseAsync(int, ReadOnlySpan{char})"/>
    public virtual bool CloseAsync(int status, ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return CloseAsync(status, bytes.Span);
    }

    /// <inheritdoc cref="WsSession.CloseAsync(int, byte[])"/>
    public virtual bool CloseAsync(int status, byte[] buffer) => CloseAsync(status, buffer.AsSpan());

    /// <inheritdoc cref="WsSession.CloseAsync(int, byte[], long, long)"/>
    public virtual bool CloseAsync(int status, byte[] buffer, long offset, long size) => CloseAsync(status, buffer.AsSpan(checked((int)offset), checked((int)size)));

    StreamSessionEngine? IWsPeerHost.Engine => Engine;

    IStreamProtocol? IWsPeerHost.Protocol
    {
        get => Protocol;
        set => Protocol = value;
    }

    bool IWsPeerHost.DisconnectEngine(NetCoreServer.DisconnectReason reason) => DisconnectEngine(reason);
}
