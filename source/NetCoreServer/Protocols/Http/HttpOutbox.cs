using System;
using System.Collections.Generic;
using NetCoreServer.Buffers;
using NetCoreServer.Engine;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// The server's responses on one connection, in order, whatever their size against the send limit: a response goes to
/// the send queue whole when nothing waits here and it fits; otherwise it waits here and goes out in pieces, each
/// queued by reference as the queue drains below its high watermark (<see cref="Pump"/>, run after every sent batch).
/// A response is thus never refused, lost or overtaken, and a connection holds one copy of it at most. Thread-safe:
/// responses come from any thread, pieces are queued by one pumper at a time, never under the lock.
/// </summary>
internal sealed class HttpOutbox
{
    private readonly IHttpServerSessionHost _session;
    private readonly object _lock = new();
    private readonly Queue<Entry> _entries = new();
    private long _bytes;
    private bool _pumping;
    private bool _again;

    public HttpOutbox(IHttpServerSessionHost session) => _session = session;

    /// <summary>A response waiting: its bytes (never changed once here), how many are queued already, whether to close after it.</summary>
    private sealed class Entry(byte[] bytes, int length, bool closeAfter, bool copy)
    {
        public byte[] Bytes { get; } = bytes;

        /// <summary>A copy made here (garbage once queued), not shared bytes.</summary>
        public bool Copy { get; } = copy;

        public int Length { get; } = length;

        public bool CloseAfter { get; } = closeAfter;

        public int Offset { get; set; }
    }

    /// <summary>Bytes waiting here, not yet in the send queue.</summary>
    public long Bytes
    {
        get
        {
            lock (_lock)
                return _bytes;
        }
    }

    /// <summary>True while some response waits here.</summary>
    public bool IsBusy
    {
        get
        {
            lock (_lock)
                return _entries.Count > 0 || _pumping;
        }
    }

    /// <summary>
    /// Sends a response of one or two pieces as one unit, then closes when <paramref name="closeAfter"/>. Blocking,
    /// it waits until the response is handed to the socket when it can go at once; behind a waiting response it is
    /// kept in order and this returns. False only when the connection is closed.
    /// </summary>
    public bool Send(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, bool blocking, bool closeAfter)
    {
        if (!IsBusy)
        {
            // The blocking send is not bounded by the send limit (it waits instead), so it always goes at once.
            var status = blocking
                ? (_session.SendMessage(head, body, blocking: true) ? SendStatus.Accepted : SendStatus.NotConnected)
                : _session.TrySendMessage(head, body);
            if (status != SendStatus.LimitReached)
                return Done(status == SendStatus.Accepted, closeAfter);
        }
        var copy = GC.AllocateUninitializedArray<byte>(head.Length + body.Length);
        head.CopyTo(copy);
        body.CopyTo(copy.AsSpan(head.Length));
        return Keep(copy, copy.Length, closeAfter, true);
    }

    /// <summary>Sends bytes that never change (cached static content) by reference when they cannot go at once.</summary>
    public bool SendShared(byte[] bytes, int length, bool closeAfter)
    {
        if (!IsBusy)
        {
            // A large file by reference: no copy, and no 2 MiB chunk rented for a 1 MiB file per request in flight.
            var status = length > EngineBuffers.SmallLimit
                ? _session.TrySendBorrowed(new ArraySegment<byte>(bytes, 0, length))
                : _session.TrySendMessage(bytes.AsSpan(0, length), default);
            if (status != SendStatus.LimitReached)
                return Done(status == SendStatus.Accepted, closeAfter);
        }
        return Keep(bytes, length, closeAfter, false);
    }

    /// <summary>Closes the connection once what waits here now is in the send queue (gracefully: that goes out first).</summary>
    public void CloseWhenQueued()
    {
        if (!IsBusy)
        {
            _session.Disconnect();
            return;
        }
        Keep(Array.Empty<byte>(), 0, closeAfter: true, copy: false);
    }

    private bool Done(bool sent, bool closeAfter)
    {
        if (closeAfter)
            _session.Disconnect();
        return sent;
    }

    private bool Keep(byte[] bytes, int length, bool closeAfter, bool copy)
    {
        lock (_lock)
        {
            _entries.Enqueue(new Entry(bytes, length, closeAfter, copy));
            _bytes += length;
        }
        Pump();
        return true;
    }

    /// <summary>Queues what waits here while the send queue has room; run after each sent batch. One pumper at a time.</summary>
    public void Pump()
    {
        lock (_lock)
        {
            if (_pumping)
            {
                // The pumper looks again before it stops: this batch's room is not missed.
                _again = true;
                return;
            }
            if (_entries.Count == 0)
                return;
            _pumping = true;
            _again = false;
        }
        while (true)
        {
            Entry entry;
            lock (_lock)
            {
                if (_entries.Count == 0)
                {
                    _pumping = false;
                    return;
                }
                entry = _entries.Peek();
            }
            var left = entry.Length - entry.Offset;
            var take = (int)Math.Min(left, _session.SendRoom);
            var status = take > 0 || left == 0
                ? (left == 0 ? SendStatus.Accepted : _session.TrySendBorrowed(new ArraySegment<byte>(entry.Bytes, entry.Offset, take)))
                : SendStatus.LimitReached;
            if (status == SendStatus.NotConnected)
            {
                Drop();
                return;
            }
            if (status == SendStatus.LimitReached)
            {
                lock (_lock)
                {
                    if (!_again)
                    {
                        _pumping = false;
                        return;
                    }
                    _again = false;
                }
                continue;
            }
            bool close, done;
            lock (_lock)
            {
                entry.Offset += take;
                _bytes -= take;
                done = entry.Offset == entry.Length;
                close = done && entry.CloseAfter;
                if (done)
                    _entries.Dequeue();
            }
            // The send queue holds its last pieces by reference until sent; the copy is then garbage.
            if (done && entry.Copy)
                EngineBuffers.Released(entry.Length);
            if (close)
            {
                // Graceful: what was queued goes out first. Later responses answer requests the client will not see answered.
                _session.Disconnect();
                Drop();
                return;
            }
        }
    }

    /// <summary>Forgets what waits (the connection is closed or closing).</summary>
    public void Drop()
    {
        long copies = 0;
        lock (_lock)
        {
            foreach (var entry in _entries)
                copies += entry.Copy ? entry.Length : 0;
            _entries.Clear();
            _bytes = 0;
            _pumping = false;
        }
        EngineBuffers.Released(copies);
    }
}
