using System;
using System.Buffers;
using System.Collections.Generic;
using System.Threading;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// Everything an HTTP/2 server connection sends. Frames are written under the connection's lock into a pending
/// buffer, in the order they are made (HPACK's dynamic table needs header blocks on the wire in the order they were
/// encoded), and <see cref="Flush"/> hands that buffer to the <see cref="HttpOutbox"/> outside the lock, one flusher at a
/// time. DATA respects the peer's windows (per stream and for the connection) and SETTINGS_MAX_FRAME_SIZE; what a
/// window does not take waits on its stream and goes out round-robin, one frame per stream per turn, as WINDOW_UPDATE
/// arrives and while the send queue has room (<see cref="PumpLocked"/>), so a slow stream does not stall the others.
/// </summary>
internal sealed class Http2Output
{
    private readonly Http2StreamTable _streams;
    private readonly HttpOutbox _outbox;
    private readonly IHttpServerSessionHost _session;
    private readonly HpackEncoder _encoder = new();
    private readonly ArrayBufferWriter<byte> _block = new(256);
    private readonly List<Http2Stream> _waiting = new();
    private Http2FlowWindow _window = new(Http2Settings.DefaultInitialWindowSize);
    private byte[] _pending = Array.Empty<byte>();
    private int _pendingLength;
    private byte[] _spare = Array.Empty<byte>();
    private bool _flushing;
    private bool _closed;
    private int _turn;
    private long _lastSent;

    public Http2Output(Http2StreamTable streams, HttpOutbox outbox, IHttpServerSessionHost session)
    {
        _streams = streams;
        _outbox = outbox;
        _session = session;
    }

    /// <summary>The peer's SETTINGS as last received (under the lock).</summary>
    public Http2Settings Peer { get; } = new();

    /// <summary>When a response's HEADERS or DATA was last written (the timer wheel's clock, ms): the idle clock's other half.</summary>
    public long LastSent => Volatile.Read(ref _lastSent);

    /// <summary>Adds a WINDOW_UPDATE for the connection; false when it would pass 2^31-1 (a FLOW_CONTROL_ERROR).</summary>
    public bool IncreaseLocked(int increment) => _window.TryIncrease(increment);

    /// <summary>
    /// Applies a SETTINGS frame from the peer: the new initial window moves every stream's window (§6.9.2), the frame
    /// size and table size apply to what is sent next. False when a window would pass 2^31-1.
    /// </summary>
    public bool ApplySettingsLocked(ReadOnlySpan<byte> payload)
    {
        var oldWindow = Peer.InitialWindowSize;
        Peer.Apply(payload);
        _encoder.SetPeerTableSizeLimit((int)Math.Min(Peer.HeaderTableSize, int.MaxValue));
        var delta = Peer.InitialWindowSize - oldWindow;
        if (delta == 0)
            return true;
        foreach (var stream in _streams.AllLocked)
        {
            if (!stream.SendWindow.TryAdjust(delta))
                return false;
        }
        return true;
    }

    public Span<byte> ReserveLocked(int length)
    {
        if (_pendingLength + length > _pending.Length)
        {
            var grown = ArrayPool<byte>.Shared.Rent(Math.Max(_pendingLength + length, Math.Max(4096, _pending.Length * 2)));
            _pending.AsSpan(0, _pendingLength).CopyTo(grown);
            if (_pending.Length > 0)
                ArrayPool<byte>.Shared.Return(_pending);
            _pending = grown;
        }
        return _pending.AsSpan(_pendingLength, length);
    }

    public void CommitLocked(int written) => _pendingLength += written;

    public void SettingsLocked(ReadOnlySpan<(Http2SettingId Id, uint Value)> parameters)
        => CommitLocked(Http2FrameWriter.WriteSettings(ReserveLocked(9 + 6 * parameters.Length), parameters));

    public void SettingsAckLocked() => CommitLocked(Http2FrameWriter.WriteSettingsAck(ReserveLocked(9)));

    public void PingAckLocked(ReadOnlySpan<byte> opaque) => CommitLocked(Http2FrameWriter.WritePing(ReserveLocked(17), opaque, ack: true));

    public void WindowUpdateLocked(int streamId, int increment) => CommitLocked(Http2FrameWriter.WriteWindowUpdate(ReserveLocked(13), streamId, increment));

    /// <summary>
    /// The request body bytes behind <paramref name="count"/> bytes of <paramref name="stream"/>'s receive window were
    /// taken (copied into the request, or handed to the body hook): WINDOW_UPDATE once half the window built up, unless
    /// the client sends nothing more on the stream.
    /// </summary>
    public void CreditLocked(Http2Stream stream, int count)
    {
        if (count <= 0)
            return;
        var increment = stream.ReceiveWindow.Release(count, Http2Limits.StreamWindow);
        if (increment > 0 && !stream.BodyEnded && stream.State != Http2StreamState.Closed)
            WindowUpdateLocked(stream.Id, increment);
    }

    public void ResetLocked(int streamId, Http2ErrorCode code) => CommitLocked(Http2FrameWriter.WriteRstStream(ReserveLocked(13), streamId, code));

    /// <summary>
    /// GOAWAY. <paramref name="final"/> (a connection error): nothing is sent after it but what is pending already; a
    /// drain's GOAWAY lets the streams under way finish.
    /// </summary>
    public void GoAwayLocked(int lastStreamId, Http2ErrorCode code, string reason, bool final = true)
    {
        if (_closed)
            return;
        var debug = System.Text.Encoding.ASCII.GetBytes(reason);
        CommitLocked(Http2FrameWriter.WriteGoAway(ReserveLocked(17 + debug.Length), lastStreamId, code, debug));
        _closed = final;
    }

    /// <summary>
    /// A response head on <paramref name="stream"/> (HTTP/1.1 head bytes, mapped by <see cref="Http2ResponseHead"/>);
    /// with END_STREAM when nothing follows. Returns the status (0, nothing sent, for a head without a status line) and
    /// the Content-Length it declared, or -1.
    /// </summary>
    public int HeadersLocked(Http2Stream stream, ReadOnlySpan<byte> head, bool endStream, out long contentLength)
    {
        _block.ResetWrittenCount();
        var status = Http2ResponseHead.Encode(head, _encoder, _block, out contentLength);
        if (status == 0 || _closed)
            return status;
        var maxFrame = Peer.MaxFrameSize;
        var block = _block.WrittenSpan;
        CommitLocked(Http2FrameWriter.WriteHeaders(ReserveLocked(Http2FrameWriter.HeadersLength(block.Length, maxFrame)), stream.Id, block, endStream, maxFrame));
        Volatile.Write(ref _lastSent, _session.Timers.Now);
        if (endStream)
            EndedLocked(stream);
        return status;
    }

    /// <summary>
    /// Body bytes on <paramref name="stream"/>, then END_STREAM when <paramref name="endStream"/>: what the windows
    /// take goes now, the rest waits on the stream (copied) until WINDOW_UPDATE.
    /// </summary>
    public void DataLocked(Http2Stream stream, ReadOnlySpan<byte> data, bool endStream)
    {
        if (stream.State is Http2StreamState.Closed or Http2StreamState.HalfClosedLocal || _closed)
            return;
        if (stream.PendingLength == 0 && !stream.EndAfterPending)
        {
            // What the send queue takes now; the rest waits on the stream and goes out as the queue drains (PumpLocked).
            var sent = WriteDataLocked(stream, data, endStream, RoomLocked());
            if (sent == data.Length)
                return;
            data = data[sent..];
        }
        stream.AppendPending(data);
        stream.EndAfterPending |= endStream;
        if (!_waiting.Contains(stream))
            _waiting.Add(stream);
    }

    // Writes DATA frames from `data` while the windows, the frame size and `budget` allow; returns the bytes taken.
    private int WriteDataLocked(Http2Stream stream, ReadOnlySpan<byte> data, bool endStream, int budget)
    {
        if (data.IsEmpty && !endStream)
            return 0;
        var taken = 0;
        do
        {
            var size = Math.Min(Math.Min(data.Length - taken, Peer.MaxFrameSize), Math.Min(stream.SendWindow.Available, _window.Available));
            size = Math.Min(size, budget - taken);
            if (size < 0 || (size == 0 && data.Length > taken))
                return taken;
            var last = endStream && taken + size == data.Length;
            if (size > 0)
                Volatile.Write(ref _lastSent, _session.Timers.Now);
            CommitLocked(Http2FrameWriter.WriteData(ReserveLocked(9 + size), stream.Id, data.Slice(taken, size), last));
            stream.SendWindow.TryConsume(size);
            _window.TryConsume(size);
            taken += size;
            if (last)
                EndedLocked(stream);
        }
        while (taken < data.Length);
        return taken;
    }

    /// <summary>Sends what waits on streams while the windows and the send queue allow, one frame per stream per turn.</summary>
    // Bytes the send queue takes before its high watermark, less what is written here or waits in the outbox.
    private int RoomLocked() => (int)Math.Clamp(_session.SendRoom - _pendingLength - _outbox.Bytes, 0, int.MaxValue);

    public void PumpLocked()
    {
        var budget = RoomLocked();
        var progress = true;
        while (progress && _waiting.Count > 0 && budget > 0 && !_closed)
        {
            progress = false;
            var count = _waiting.Count;
            for (var i = 0; i < count && budget > 0; i++)
            {
                var stream = _waiting[(_turn + i) % count];
                var before = stream.PendingLength;
                var sent = WriteDataLocked(stream, stream.Pending, stream.EndAfterPending, Math.Min(budget, Peer.MaxFrameSize));
                stream.TakePending(sent);
                budget -= sent;
                progress |= sent > 0 || (before == 0 && !stream.EndAfterPending);
                if (stream.Drained is { } drained && ProducerMayGoOnLocked(stream))
                {
                    stream.Drained = null;
                    drained.TrySetResult();
                }
            }
            _turn++;
            _waiting.RemoveAll(static s => s.State is Http2StreamState.Closed or Http2StreamState.HalfClosedLocal || (s.PendingLength == 0 && !s.EndAfterPending));
        }
    }

    /// <summary>
    /// A streamed body's producer waits: past <see cref="Http2Limits.StreamedPendingHigh"/> pending on its stream, or past
    /// a chunk while the peer's window (the stream's or the connection's) is shut, so that a stream its client stalls
    /// holds about one chunk, not a megabyte, whatever the number of such streams.
    /// </summary>
    public bool ProducerFullLocked(Http2Stream stream)
        => stream.PendingLength >= Http2Limits.StreamedPendingHigh
            || (stream.PendingLength >= Http2Limits.StreamedChunk && Math.Min(stream.SendWindow.Available, _window.Available) <= 0);

    // The producer goes on under half the high mark once the window is open again or less than a chunk is left.
    private bool ProducerMayGoOnLocked(Http2Stream stream)
        => stream.PendingLength < Http2Limits.StreamedPendingHigh / 2
            && (Math.Min(stream.SendWindow.Available, _window.Available) > 0 || stream.PendingLength < Http2Limits.StreamedChunk);

    /// <summary>Sent a stream's END_STREAM: the stream closes once both sides ended.</summary>
    private void EndedLocked(Http2Stream stream)
    {
        stream.EndAfterPending = false;
        var next = Http2StreamTransitions.Sent(stream.State, Http2FrameType.Data, endStream: true);
        if (next == Http2StreamState.Closed)
            _streams.CloseLocked(stream);
        else
            stream.State = next;
    }

    /// <summary>Forgets a stream's pending bytes (it was reset).</summary>
    public void ForgetLocked(Http2Stream stream)
    {
        stream.DropPending();
        _waiting.Remove(stream);
    }

    /// <summary>Hands what was written to the outbox, outside the lock; one flusher at a time, in order.</summary>
    public void Flush()
    {
        lock (_streams.Sync)
        {
            if (_flushing)
                return;
            _flushing = true;
        }
        while (true)
        {
            byte[] bytes;
            int length;
            lock (_streams.Sync)
            {
                if (_pendingLength == 0)
                {
                    // Nothing left to write: an idle connection holds no output buffer.
                    _flushing = false;
                    ReturnBuffersLocked();
                    return;
                }
                bytes = _pending;
                length = _pendingLength;
                _pending = _spare;
                _spare = Array.Empty<byte>();
                _pendingLength = 0;
            }
            _outbox.Send(bytes.AsSpan(0, length), default, blocking: false, closeAfter: false);
            lock (_streams.Sync)
            {
                if (_spare.Length == 0)
                    _spare = bytes;
                else
                    ArrayPool<byte>.Shared.Return(bytes);
            }
        }
    }

    /// <summary>The connection ended: the buffers go back to the pool.</summary>
    public void CloseLocked()
    {
        _closed = true;
        _waiting.Clear();
        _pendingLength = 0;
        if (!_flushing)
            ReturnBuffersLocked();
    }

    // Only when nothing is pending and no flusher holds a buffer outside the lock.
    private void ReturnBuffersLocked()
    {
        if (_pending.Length > 0)
            ArrayPool<byte>.Shared.Return(_pending);
        if (_spare.Length > 0)
            ArrayPool<byte>.Shared.Return(_spare);
        _pending = _spare = Array.Empty<byte>();
    }
}
