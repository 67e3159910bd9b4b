using System;
using System.Collections.Generic;

namespace NetCoreServer.Engine;

/// <summary>
/// The segments handed to the transport in one send. Reused for the life of a connection so steady-state
/// sending allocates nothing; a partial send trims the front and the rest is sent again. The lists start empty and
/// grow to the largest batch seen; they are made by the first send, so a connection that never sends pays nothing for them.
/// </summary>
internal sealed class InFlightBatch
{
    private List<SendQueue.Segment>? _segments;
    private List<ArraySegment<byte>>? _views;

    public int Count => _segments?.Count ?? 0;

    public long Bytes { get; private set; }

    /// <summary>The bytes still to send, as the transport wants them.</summary>
    public IReadOnlyList<ArraySegment<byte>> Views => _views ?? (IReadOnlyList<ArraySegment<byte>>)Array.Empty<ArraySegment<byte>>();

    public void Add(SendQueue.Segment segment)
    {
        (_segments ??= new()).Add(segment);
        (_views ??= new()).Add(new ArraySegment<byte>(segment.Array, segment.Offset, segment.Count));
        Bytes += segment.Count;
    }

    /// <summary>Drops <paramref name="sent"/> bytes from the front, releasing segments that are done.</summary>
    public void Consume(int sent)
    {
        Bytes -= sent;
        if (_segments == null || _views == null)
            return;
        var done = 0;
        while (done < _segments.Count && sent > 0)
        {
            var segment = _segments[done];
            if (sent >= segment.Count)
            {
                sent -= segment.Count;
                segment.Release();
                done++;
                continue;
            }
            segment.Offset += sent;
            segment.Count -= sent;
            _segments[done] = segment;
            _views[done] = new ArraySegment<byte>(segment.Array, segment.Offset, segment.Count);
            sent = 0;
        }
        if (done > 0)
        {
            _segments.RemoveRange(0, done);
            _views.RemoveRange(0, done);
        }
    }

    /// <summary>Releases every segment (teardown or error).</summary>
    public void Clear()
    {
        Bytes = 0;
        if (_segments == null || _views == null)
            return;
        foreach (var segment in _segments)
            segment.Release();
        _segments.Clear();
        _views.Clear();
    }
}
