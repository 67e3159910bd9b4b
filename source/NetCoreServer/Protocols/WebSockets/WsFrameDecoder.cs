using System;
using System.Buffers.Binary;
using NetCoreServer.Buffers;
using NetCoreServer.Engine;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// Decodes the frames of one connection (RFC 6455 §5) on Kestrel's input contract: <see cref="Read"/> is handed
/// everything received and not consumed yet and says how much it consumed; the caller keeps the rest and hands it
/// again, first, with more. A header is consumed only once it is whole (2 to 14 bytes; a partial header is left with
/// the caller, never copied), then payload bytes as they arrive, unmasked straight into the message buffer. Each call
/// returns at most one event; the call after an event continues, so a caller loops until
/// <see cref="WsDecodeResult.NeedMoreData"/> (or uses <see cref="Receive"/>).
/// <para>
/// Enforced: masking by role (a server reads only masked frames, a client only unmasked ones), reserved bits (RSV1
/// only with permessage-deflate, on a message's first frame), reserved opcodes, control frames of at most 125 bytes
/// (in the 7-bit length field) and never fragmented, continuation only inside a fragmented message and no new message
/// inside one, all 1002; text and close reasons valid UTF-8 across fragment and read boundaries, failing at the first
/// bad byte, 1007; undecompressable data 1007; a message (after decompression) over <see cref="MaxMessageSize"/>,
/// 1009, refused at the frame header when the length says so, or as soon as decompressed output passes it. A close
/// frame's payload is empty or a valid status (<see cref="WsCloseStatus.IsValidOnWire"/>) with a UTF-8 reason, else
/// 1002 (1007 for the reason). Data frame lengths need not use the shortest encoding (the MUST is on the sender;
/// accepting costs nothing); a 64-bit length with its top bit set is 1002.
/// </para>
/// <para>
/// Memory: the message buffer is the engine's (<see cref="EngineBuffers"/>), grows as bytes arrive (not from the declared length, so a header promising
/// 16 MiB costs nothing until the bytes come), and goes back to the pool on the call after the message is delivered:
/// between messages the decoder holds only its 125-byte control buffer. Not thread-safe.
/// </para>
/// </summary>
internal sealed partial class WsFrameDecoder : IDisposable
{
    /// <summary>The default <see cref="MaxMessageSize"/>: 16 MiB.</summary>
    public const int DefaultMaxMessageSize = 16 * 1024 * 1024;

    private enum State
    {
        Header,
        Payload,
        Closed,
        Failed,
    }

    private readonly byte[] _control = new byte[WsFrameEncoder.MaxControlPayload];
    private readonly bool _expectMasked;
    private WsInflater? _inflater;
    private State _state;

    // The frame being read.
    private WsOpcode _frameOpcode;
    private bool _frameFin;
    private bool _frameMasked;
    private uint _maskKey;
    private long _frameRemaining;
    private long _framePosition;
    private int _controlLength;

    // The data message being read: started by a Text/Binary frame, ended by a frame with FIN.
    private bool _inMessage;
    private WsOpcode _messageOpcode;
    private bool _messageCompressed;
    private long _compressedLength;
    private byte[]? _buffer;
    private int _length;
    private WsUtf8Validator _utf8;
    private bool _releaseOnNextRead;
    // Receive runs: a delivered message's buffer is reused by the next one instead of going back to the pool.
    private bool _reuseBuffer;

    /// <param name="role">The side this decoder reads for: a server reads client frames (masked), a client server frames (unmasked).</param>
    /// <param name="inflater">The decompressor when permessage-deflate was negotiated (RSV1 is then allowed); owned and disposed by the decoder.</param>
    /// <param name="maxMessageSize">See <see cref="MaxMessageSize"/>.</param>
    public WsFrameDecoder(WsRole role, WsInflater? inflater = null, int maxMessageSize = DefaultMaxMessageSize)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxMessageSize);
        Role = role;
        _expectMasked = role == WsRole.Server;
        _inflater = inflater;
        MaxMessageSize = maxMessageSize;
    }

    public WsRole Role { get; }

    /// <summary>
    /// The largest message accepted, in bytes after decompression (default <see cref="DefaultMaxMessageSize"/>, 16 MiB);
    /// a bigger one fails with 1009. It bounds the memory one connection's receiving side can hold; with
    /// permessage-deflate it also bounds the compressed bytes of one message. Changes apply from the next frame.
    /// </summary>
    public int MaxMessageSize { get; set; }

    /// <summary>True when permessage-deflate is on for incoming messages.</summary>
    public bool Decompresses => _inflater != null;

    /// <summary>After <see cref="WsDecodeResult.Message"/>, <see cref="WsOpcode.Text"/> or <see cref="WsOpcode.Binary"/>; after a control event, its opcode.</summary>
    public WsOpcode Opcode { get; private set; }

    /// <summary>The event's payload (the message, the ping/pong data, the close reason), valid until the next call.</summary>
    public ArraySegment<byte> Payload { get; private set; } = ArraySegment<byte>.Empty;

    /// <summary>After <see cref="WsDecodeResult.Close"/>: the status received, 1005 when the close frame had none.</summary>
    public int CloseStatus { get; private set; }

    /// <summary>After <see cref="WsDecodeResult.Error"/>: 1002 (protocol), 1007 (invalid data) or 1009 (too big); 0 otherwise.</summary>
    public int ErrorStatus { get; private set; }

    /// <summary>After an error, what was refused, for logs (never echoes the peer's bytes); "" otherwise.</summary>
    public string ErrorReason { get; private set; } = string.Empty;

    public bool IsFailed => _state == State.Failed;

    /// <summary>Payload bytes of the current frame still to come (0 between frames): what a blocking reader needs next.</summary>
    public long PayloadRemaining => _state == State.Payload ? _frameRemaining : 0;

    /// <summary>True between frames and outside a fragmented message: input that ends here holds no cut frame nor unfinished message.</summary>
    public bool IsBetweenMessages => _state == State.Header && !_inMessage;

    /// <summary>True once a close frame was read (or the decoder was disposed): further input is consumed and ignored.</summary>
    public bool IsClosed => _state == State.Closed;

    /// <summary>
    /// Decodes what it can of <paramref name="data"/> (everything not consumed yet, the leftover of the previous call
    /// first) up to the next event. <paramref name="consumed"/> is how many bytes from the front it took. After
    /// <see cref="WsDecodeResult.Error"/> every call returns Error and consumes nothing; after
    /// <see cref="WsDecodeResult.Close"/> every call consumes everything and returns NeedMoreData.
    /// </summary>
    public WsDecodeResult Read(ReadOnlySpan<byte> data, out int consumed)
    {
        consumed = 0;
        if (_releaseOnNextRead)
        {
            _releaseOnNextRead = false;
            // Inside Receive the buffer serves the next message of the same read, given back when the read is decoded.
            if (_reuseBuffer)
                _length = 0;
            else
                ReleaseBuffer();
            Payload = ArraySegment<byte>.Empty;
        }
        switch (_state)
        {
            case State.Failed:
                return WsDecodeResult.Error;
            case State.Closed:
                consumed = data.Length;
                return WsDecodeResult.NeedMoreData;
        }

        while (true)
        {
            if (_state == State.Header)
            {
                var header = ReadHeader(data[consumed..], out var headerSize);
                if (header != WsDecodeResult.Message)
                    return header;
                consumed += headerSize;
            }

            var take = (int)Math.Min(_frameRemaining, data.Length - consumed);
            if (take > 0)
            {
                var failure = ConsumePayload(data.Slice(consumed, take));
                consumed += take;
                if (failure != WsDecodeResult.NeedMoreData)
                    return failure;
            }
            if (_frameRemaining > 0)
                return WsDecodeResult.NeedMoreData;

            _state = State.Header;
            var result = CompleteFrame();
            if (result != WsDecodeResult.NeedMoreData)
                return result;
        }
    }

    /// <summary>
    /// Decodes <paramref name="data"/> and raises <paramref name="handler"/>'s hooks for each event; returns how many
    /// bytes were consumed (all of them once the connection is closing or failed; up to the message after which the
    /// handler asked to stop), as <c>IStreamProtocol.Received</c> does.
    /// </summary>
    public int Receive<THandler>(ReadOnlySpan<byte> data, THandler handler)
        where THandler : IWsFrameHandler
    {
        var total = 0;
        _reuseBuffer = true;
        while (true)
        {
            var result = Read(data[total..], out var consumed);
            total += consumed;
            switch (result)
            {
                case WsDecodeResult.NeedMoreData:
                    return EndReceive(total);
                case WsDecodeResult.Message:
                    if (!handler.OnWsMessage(Opcode, Payload))
                        return EndReceive(total);
                    break;
                case WsDecodeResult.Ping:
                    handler.OnWsPing(Payload);
                    break;
                case WsDecodeResult.Pong:
                    handler.OnWsPong(Payload);
                    break;
                case WsDecodeResult.Close:
                    _reuseBuffer = false;
                    handler.OnWsClose(CloseStatus, Payload);
                    return data.Length;
                default:
                    _reuseBuffer = false;
                    handler.OnWsFailure(ErrorStatus, ErrorReason);
                    return data.Length;
            }
        }
    }

    /// <summary>The end of a <see cref="Receive"/>: unless a message is under way, the buffer goes back to the pool.</summary>
    private int EndReceive(int total)
    {
        _reuseBuffer = false;
        if (!_inMessage && _buffer != null)
        {
            _releaseOnNextRead = false;
            ReleaseBuffer();
            Payload = ArraySegment<byte>.Empty;
        }
        return total;
    }

    /// <summary>True while a data message is under way: its first frame's header was read, its last frame's payload not all yet.</summary>
    public bool InMessage => _inMessage;

    /// <summary>Data messages started so far: tells the message under way from the next one.</summary>
    public long MessagesStarted { get; private set; }

    /// <summary>True while the decoder holds a pooled message buffer (a message under way, or one just read by <see cref="Read"/>).</summary>
    internal bool HoldsBuffer => _buffer != null;

    /// <summary>Releases the buffers and the decompressor; the decoder then ignores input as after a close.</summary>
    public void Dispose()
    {
        ReleaseBuffer();
        _inflater?.Dispose();
        _inflater = null;
        Payload = ArraySegment<byte>.Empty;
        if (_state != State.Failed)
            _state = State.Closed;
    }

    /// <summary>
    /// Parses and checks a whole header; returns <see cref="WsDecodeResult.Message"/> when one was read (the frame is
    /// set up, <paramref name="size"/> bytes to consume), NeedMoreData when it is not all there, or Error.
    /// </summary>
    private WsDecodeResult ReadHeader(ReadOnlySpan<byte> data, out int size)
    {
        size = 0;
        if (data.Length < 2)
            return WsDecodeResult.NeedMoreData;
        var first = data[0];
        var second = data[1];
        var fin = (first & 0x80) != 0;
        var rsv1 = (first & 0x40) != 0;
        var opcode = (WsOpcode)(first & 0x0F);
        var masked = (second & 0x80) != 0;
        var length7 = second & 0x7F;
        var control = WsFrameEncoder.IsControl(opcode);

        if ((first & 0x30) != 0)
            return Fail(WsCloseStatus.ProtocolError, "RSV2 or RSV3 is set");
        if (opcode is not (WsOpcode.Continuation or WsOpcode.Text or WsOpcode.Binary or WsOpcode.Close or WsOpcode.Ping or WsOpcode.Pong))
            return Fail(WsCloseStatus.ProtocolError, "reserved opcode");
        if (rsv1 && _inflater == null)
            return Fail(WsCloseStatus.ProtocolError, "RSV1 is set but permessage-deflate was not negotiated");
        if (rsv1 && (control || opcode == WsOpcode.Continuation))
            return Fail(WsCloseStatus.ProtocolError, "RSV1 is set on a control or continuation frame");
        if (masked != _expectMasked)
            return Fail(WsCloseStatus.ProtocolError, _expectMasked ? "a client frame is not masked" : "a server frame is masked");
        if (control)
        {
            if (!fin)
                return Fail(WsCloseStatus.ProtocolError, "a control frame is fragmented");
            if (length7 > WsFrameEncoder.MaxControlPayload)
                return Fail(WsCloseStatus.ProtocolError, "a control frame carries more than 125 bytes");
        }
        else if (opcode == WsOpcode.Continuation)
        {
            if (!_inMessage)
                return Fail(WsCloseStatus.ProtocolError, "a continuation frame without a message to continue");
        }
        else if (_inMessage)
        {
            return Fail(WsCloseStatus.ProtocolError, "a new data frame inside a fragmented message");
        }

        var lengthSize = length7 switch
        {
            126 => 2,
            127 => 8,
            _ => 0,
        };
        var headerSize = 2 + lengthSize + (masked ? 4 : 0);
        if (data.Length < headerSize)
            return WsDecodeResult.NeedMoreData;
        long length = length7;
        if (length7 == 126)
        {
            length = BinaryPrimitives.ReadUInt16BigEndian(data[2..]);
        }
        else if (length7 == 127)
        {
            var wide = BinaryPrimitives.ReadUInt64BigEndian(data[2..]);
            if (wide > long.MaxValue)
                return Fail(WsCloseStatus.ProtocolError, "a 64-bit payload length has its most significant bit set");
            length = (long)wide;
        }

        if (!control)
        {
            var compressed = opcode == WsOpcode.Continuation ? _messageCompressed : rsv1;
            var sofar = opcode == WsOpcode.Continuation ? (compressed ? _compressedLength : _length) : 0;
            if (length > MaxMessageSize - sofar)
                return Fail(WsCloseStatus.MessageTooBig, "the message is larger than allowed");
            if (opcode != WsOpcode.Continuation)
                StartMessage(opcode, compressed);
        }

        _frameOpcode = opcode;
        _frameFin = fin;
        _frameMasked = masked;
        _maskKey = masked ? WsMask.ReadKey(data.Slice(2 + lengthSize, 4)) : 0;
        _frameRemaining = length;
        _framePosition = 0;
        _controlLength = 0;
        _state = State.Payload;
        size = headerSize;
        return WsDecodeResult.Message;
    }

    private void StartMessage(WsOpcode opcode, bool compressed)
    {
        _inMessage = true;
        MessagesStarted++;
        _messageOpcode = opcode;
        _messageCompressed = compressed;
        _compressedLength = 0;
        _length = 0;
        _utf8.Reset();
    }

    private WsDecodeResult Fail(int status, string reason)
    {
        ErrorStatus = status;
        ErrorReason = reason;
        _state = State.Failed;
        Payload = ArraySegment<byte>.Empty;
        ReleaseBuffer();
        _inflater?.Dispose();
        _inflater = null;
        return WsDecodeResult.Error;
    }

    private void ReleaseBuffer()
    {
        if (_buffer != null)
            EngineBuffers.Return(_buffer);
        _buffer = null;
        _length = 0;
    }
}
