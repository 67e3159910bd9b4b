using System;
using System.Security.Cryptography;
using NetCoreServer.Protocols.WebSockets;
using NetCoreServer.Transports;

namespace NetCoreServer;

/// <summary>
/// NetCoreServer's WebSocket utility, for code that drives the protocol by hand: the upgrade checks, building one frame
/// (<see cref="PrepareSendFrame"/>, read back from <see cref="SendFrame"/>) and decoding received bytes into the
/// handler's hooks (<see cref="PrepareReceiveFrame"/>). It runs on this library's codecs (RFC 6455 checks included: a
/// bad frame reaches <see cref="IWebSocket.OnWsError(string)"/> and nothing after it is decoded). The session and client
/// classes do not need it: they hold their own framer. Not thread-safe.
/// </summary>
public class WebSocket : IWebSocket
{
    /// <summary>The FIN bit of a frame's first byte: the last frame of a message.</summary>
    public const byte WS_FIN = 0x80;

    /// <summary>Text frame opcode.</summary>
    public const byte WS_TEXT = 0x01;

    /// <summary>Binary frame opcode.</summary>
    public const byte WS_BINARY = 0x02;

    /// <summary>Close frame opcode.</summary>
    public const byte WS_CLOSE = 0x08;

    /// <summary>Ping frame opcode.</summary>
    public const byte WS_PING = 0x09;

    /// <summary>Pong frame opcode.</summary>
    public const byte WS_PONG = 0x0A;

    private readonly IWebSocket _handler;
    private readonly byte[] _nonce = new byte[WsHandshake.NonceSize];
    private byte[] _send = Array.Empty<byte>();
    private int _sendLength;
    private byte[] _pending = new byte[256];
    private int _pendingLength;
    private WsRole _role = WsRole.Server;
    private WsFrameDecoder? _decoder;

    /// <summary>Creates the utility for a handler whose hooks it raises.</summary>
    /// <param name="wsHandler">The hooks' owner (a session, a client, or your own class).</param>
    public WebSocket(IWebSocket wsHandler)
    {
        _handler = wsHandler;
        InitWsNonce();
    }

    /// <summary>True after a successful <see cref="PerformServerUpgrade"/> or <see cref="PerformClientUpgrade"/>.</summary>
    public bool IsHandshaked { get; private set; }

    /// <summary>The random 16 bytes whose base64 a client sends as Sec-WebSocket-Key.</summary>
    public byte[] WsNonce => _nonce;

    /// <summary>The frame built by the last <see cref="PrepareSendFrame"/>, as it goes on the wire.</summary>
    public ReadOnlySpan<byte> SendFrame => _send.AsSpan(0, _sendLength);

    /// <summary>
    /// Client: checks the server's answer (101, Upgrade, Connection, and Sec-WebSocket-Accept against
    /// <see cref="WsNonce"/>); on success raises OnWsConnected(response), else OnWsError with the reason.
    /// </summary>
    /// <param name="response">The server's answer.</param>
    /// <param name="id">The client's id (kept for NetCoreServer's signature; the key comes from <see cref="WsNonce"/>).</param>
    /// <returns>True when upgraded.</returns>
    public bool PerformClientUpgrade(HttpResponse response, Guid id)
    {
        if (response.Status != 101)
            return false;
        var sent = new HttpRequest();
        WsClientHandshake.BuildRequest(sent, "localhost", "/", _nonce);
        if (!WsClientHandshake.Validate(sent, response, out _, out var error))
        {
            _handler.OnWsError(error);
            return false;
        }
        Upgraded(WsRole.Client);
        _handler.OnWsConnected(response);
        return true;
    }

    /// <summary>
    /// Server: answers an upgrade request. Not an upgrade: false, nothing sent. A bad one: the refusal (400 or 426) goes
    /// out through SendUpgrade, false. A valid one: <paramref name="response"/> becomes the 101, OnWsConnecting may
    /// refuse it (false), else it is sent and OnWsConnected(request) raised.
    /// </summary>
    /// <param name="request">The request.</param>
    /// <param name="response">The response to fill.</param>
    /// <returns>True when upgraded.</returns>
    public bool PerformServerUpgrade(HttpRequest request, HttpResponse response)
    {
        var kind = WsServerHandshake.Validate(request, out var upgrade, out var status, out var error);
        if (kind == WsUpgradeStatus.NotWebSocket)
            return false;
        if (kind == WsUpgradeStatus.Invalid || upgrade == null)
        {
            WsServerHandshake.Reject(response, status, error);
            _handler.SendUpgrade(response);
            return false;
        }
        WsServerHandshake.Accept(upgrade, response);
        if (!_handler.OnWsConnecting(request, response))
            return false;
        _handler.SendUpgrade(response);
        Upgraded(WsRole.Server);
        _handler.OnWsConnected(request);
        return true;
    }

    /// <summary>
    /// Builds one frame into <see cref="SendFrame"/>: <paramref name="opcode"/> is the first header byte (WS_FIN | an
    /// opcode); masked with a fresh random key when <paramref name="mask"/> (client frames).
    /// </summary>
    /// <remarks>
    /// A close frame carries <paramref name="status"/> and the UTF-8 reason in <paramref name="buffer"/> (nothing for a
    /// status that may not travel). A control frame over 125 bytes or without FIN throws <see cref="ArgumentException"/>.
    /// </remarks>
    /// <param name="opcode">FIN bit and opcode.</param>
    /// <param name="mask">Mask the payload (a client's frames).</param>
    /// <param name="buffer">The payload (the reason of a close frame); copied into <see cref="SendFrame"/>.</param>
    /// <param name="status">The status of a close frame.</param>
    public void PrepareSendFrame(byte opcode, bool mask, ReadOnlySpan<byte> buffer, int status = 0)
    {
        var code = (WsOpcode)(opcode & 0x0F);
        Span<byte> close = stackalloc byte[WsFrameEncoder.MaxControlPayload];
        scoped ReadOnlySpan<byte> payload = buffer;
        if (code == WsOpcode.Close)
            payload = close[..WsFrameEncoder.WriteClosePayload(close, status, buffer)];
        var key = mask ? WsMask.NewKey() : 0;
        var total = WsFrameEncoder.HeaderSize(payload.Length, mask) + payload.Length;
        if (_send.Length < total)
            _send = new byte[total];
        var head = WsFrameEncoder.WriteHeader(_send, code, payload.Length, (opcode & WS_FIN) != 0, masked: mask, maskKey: key);
        new WsFrame(_send.AsSpan(0, head), payload, mask, key).CopyTo(_send);
        _sendLength = total;
    }

    /// <summary>
    /// Decodes received bytes (any split) and raises the handler's hooks: OnWsReceived for each whole message, OnWsPing,
    /// OnWsPong, OnWsClose (reason and status), OnWsError for a frame that breaks the protocol, on this thread. A null
    /// buffer does nothing.
    /// </summary>
    /// <param name="buffer">Received bytes.</param>
    /// <param name="offset">Offset of the bytes.</param>
    /// <param name="size">Number of bytes.</param>
    public void PrepareReceiveFrame(byte[]? buffer, long offset, long size)
    {
        if (buffer == null || size <= 0)
            return;
        if (_pending.Length - _pendingLength < size)
            Array.Resize(ref _pending, checked((int)Math.Max(_pending.Length * 2L, _pendingLength + size)));
        buffer.AsSpan(checked((int)offset), checked((int)size)).CopyTo(_pending.AsSpan(_pendingLength));
        _pendingLength += (int)size;
        var decoder = _decoder ??= new WsFrameDecoder(_role);
        var used = 0;
        var going = true;
        while (going)
        {
            var result = decoder.Read(_pending.AsSpan(used, _pendingLength - used), out var consumed);
            used += consumed;
            going = Raise(result, decoder);
        }
        _pendingLength -= used;
        _pending.AsSpan(used, _pendingLength).CopyTo(_pending);
    }

    /// <summary>How many more bytes complete the frame being read (its header, then its payload); 2 between frames.</summary>
    /// <returns>Bytes still needed.</returns>
    public long RequiredReceiveFrameSize()
    {
        var remaining = _decoder?.PayloadRemaining ?? 0;
        if (remaining > 0)
            return remaining - _pendingLength;
        if (_pendingLength < 2)
            return 2 - _pendingLength;
        var length7 = _pending[1] & 0x7F;
        var header = 2 + (length7 == 126 ? 2 : length7 == 127 ? 8 : 0) + ((_pending[1] & 0x80) != 0 ? 4 : 0);
        return Math.Max(header - _pendingLength, 1);
    }

    /// <summary>Forgets bytes received and the frame prepared (a new connection starts afresh).</summary>
    public void ClearWsBuffers()
    {
        _pendingLength = 0;
        _sendLength = 0;
        _decoder?.Dispose();
        _decoder = null;
    }

    /// <summary>Draws a fresh random nonce (<see cref="WsNonce"/>) from the cryptographic generator.</summary>
    public void InitWsNonce() => RandomNumberGenerator.Fill(_nonce);

    private void Upgraded(WsRole role)
    {
        IsHandshaked = true;
        _role = role;
        ClearWsBuffers();
    }

    /// <summary>Raises the hook for one decoder event; false when decoding stops (more data needed, closed, failed).</summary>
    private bool Raise(WsDecodeResult result, WsFrameDecoder decoder)
    {
        var payload = decoder.Payload;
        var array = payload.Array ?? Array.Empty<byte>();
        switch (result)
        {
            case WsDecodeResult.Message:
                _handler.OnWsReceived(array, payload.Offset, payload.Count);
                return true;
            case WsDecodeResult.Ping:
                _handler.OnWsPing(array, payload.Offset, payload.Count);
                return true;
            case WsDecodeResult.Pong:
                _handler.OnWsPong(array, payload.Offset, payload.Count);
                return true;
            case WsDecodeResult.Close:
                _handler.OnWsClose(array, payload.Offset, payload.Count, decoder.CloseStatus);
                return false;
            case WsDecodeResult.Error:
                _handler.OnWsError(decoder.ErrorReason);
                return false;
            default:
                return false;
        }
    }
}
