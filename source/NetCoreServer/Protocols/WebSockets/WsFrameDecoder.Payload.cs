using System;
using System.Buffers.Binary;
using System.Text.Unicode;
using NetCoreServer.Buffers;
using NetCoreServer.Engine;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>Payload bytes: unmasking into the control or message buffer, decompression, and what a finished frame means.</summary>
internal sealed partial class WsFrameDecoder
{
    // The first rent for a message whose size is not known yet (decompressed output).
    private const int InitialInflateBuffer = 4096;

    /// <summary>Takes payload bytes of the current frame (no more than it has left); NeedMoreData when fine, else Error.</summary>
    private WsDecodeResult ConsumePayload(ReadOnlySpan<byte> chunk)
    {
        var position = _framePosition;
        _framePosition += chunk.Length;
        _frameRemaining -= chunk.Length;

        if (WsFrameEncoder.IsControl(_frameOpcode))
        {
            Unmask(chunk, _control.AsSpan(_controlLength), position);
            _controlLength += chunk.Length;
            return WsDecodeResult.NeedMoreData;
        }
        if (_messageCompressed)
            return Inflate(chunk, position);

        EnsureCapacity(_length + chunk.Length);
        var target = _buffer.AsSpan(_length, chunk.Length);
        Unmask(chunk, target, position);
        _length += chunk.Length;
        if (_messageOpcode == WsOpcode.Text && !_utf8.Append(target))
            return Fail(WsCloseStatus.InvalidPayload, "a text message is not valid UTF-8");
        return WsDecodeResult.NeedMoreData;
    }

    private WsDecodeResult Inflate(ReadOnlySpan<byte> chunk, long position)
    {
        _compressedLength += chunk.Length;
        var inflater = _inflater!;
        while (!chunk.IsEmpty)
        {
            var input = inflater.InputBuffer;
            var n = Math.Min(chunk.Length, input.Length);
            Unmask(chunk[..n], input, position);
            inflater.SetInput(n);
            var result = PullInflated(inflater);
            if (result != WsDecodeResult.NeedMoreData)
                return result;
            chunk = chunk[n..];
            position += n;
        }
        return WsDecodeResult.NeedMoreData;
    }

    /// <summary>Moves decompressed bytes into the message buffer until the input fed is used up; 1009 past the limit, 1007 for bad data.</summary>
    private WsDecodeResult PullInflated(WsInflater inflater)
    {
        while (true)
        {
            if (_length >= MaxMessageSize)
            {
                // Full to the limit: one more byte of output means the message is too big.
                Span<byte> probe = stackalloc byte[1];
                var more = inflater.Inflate(probe);
                if (more < 0)
                    return Fail(WsCloseStatus.InvalidPayload, "a compressed message is not valid deflate data");
                if (more > 0)
                    return Fail(WsCloseStatus.MessageTooBig, "the decompressed message is larger than allowed");
                return WsDecodeResult.NeedMoreData;
            }
            if (_buffer == null || _length == _buffer.Length)
                EnsureCapacity(Math.Min(MaxMessageSize, Math.Max(_length + 1, Math.Max(InitialInflateBuffer, 2 * (_buffer?.Length ?? 0)))));
            var room = _buffer.AsSpan(_length, Math.Min(_buffer!.Length, MaxMessageSize) - _length);
            var written = inflater.Inflate(room);
            if (written < 0)
                return Fail(WsCloseStatus.InvalidPayload, "a compressed message is not valid deflate data");
            if (written == 0)
                return WsDecodeResult.NeedMoreData;
            if (_messageOpcode == WsOpcode.Text && !_utf8.Append(room[..written]))
                return Fail(WsCloseStatus.InvalidPayload, "a text message is not valid UTF-8");
            _length += written;
        }
    }

    /// <summary>A frame's payload is all in: the event it completes, or NeedMoreData when it completes none (a fragment).</summary>
    private WsDecodeResult CompleteFrame()
    {
        switch (_frameOpcode)
        {
            case WsOpcode.Ping:
            case WsOpcode.Pong:
                Opcode = _frameOpcode;
                Payload = new ArraySegment<byte>(_control, 0, _controlLength);
                return _frameOpcode == WsOpcode.Ping ? WsDecodeResult.Ping : WsDecodeResult.Pong;
            case WsOpcode.Close:
                return CompleteClose();
        }
        if (!_frameFin)
            return WsDecodeResult.NeedMoreData;

        if (_messageCompressed)
        {
            var inflater = _inflater!;
            inflater.SetTail();
            var result = PullInflated(inflater);
            inflater.EndMessage();
            if (result != WsDecodeResult.NeedMoreData)
                return result;
        }
        if (_messageOpcode == WsOpcode.Text && !_utf8.IsComplete)
            return Fail(WsCloseStatus.InvalidPayload, "a text message ends inside a UTF-8 sequence");

        _inMessage = false;
        Opcode = _messageOpcode;
        Payload = _buffer == null ? ArraySegment<byte>.Empty : new ArraySegment<byte>(_buffer, 0, _length);
        _releaseOnNextRead = true;
        return WsDecodeResult.Message;
    }

    private WsDecodeResult CompleteClose()
    {
        Opcode = WsOpcode.Close;
        if (_controlLength == 0)
        {
            CloseStatus = WsCloseStatus.NoStatus;
            Payload = new ArraySegment<byte>(_control, 0, 0);
        }
        else
        {
            if (_controlLength == 1)
                return Fail(WsCloseStatus.ProtocolError, "a close frame carries one byte");
            var status = BinaryPrimitives.ReadUInt16BigEndian(_control);
            if (!WsCloseStatus.IsValidOnWire(status))
                return Fail(WsCloseStatus.ProtocolError, "a close frame carries an invalid status code");
            if (!Utf8.IsValid(_control.AsSpan(2, _controlLength - 2)))
                return Fail(WsCloseStatus.InvalidPayload, "a close reason is not valid UTF-8");
            CloseStatus = status;
            Payload = new ArraySegment<byte>(_control, 2, _controlLength - 2);
        }
        // Nothing after a close is read (§5.5.1); a message under way is abandoned.
        _state = State.Closed;
        _inMessage = false;
        ReleaseBuffer();
        _inflater?.Dispose();
        _inflater = null;
        return WsDecodeResult.Close;
    }

    /// <summary>Grows the message buffer to hold <paramref name="needed"/> bytes (doubling, up to the limit), keeping what it has.</summary>
    private void EnsureCapacity(int needed)
    {
        if (_buffer != null && _buffer.Length >= needed)
            return;
        var size = Math.Max(needed, Math.Min(MaxMessageSize, 2 * (_buffer?.Length ?? 0)));
        // The engine's buffers, not the shared pool: a large one goes back to the system after a burst (issue 35).
        var grown = EngineBuffers.Rent(size);
        if (_buffer != null)
        {
            _buffer.AsSpan(0, _length).CopyTo(grown);
            EngineBuffers.Return(_buffer);
        }
        _buffer = grown;
    }

    private void Unmask(ReadOnlySpan<byte> source, Span<byte> destination, long position)
    {
        if (_frameMasked)
            WsMask.Apply(source, destination, _maskKey, position);
        else
            source.CopyTo(destination);
    }
}
