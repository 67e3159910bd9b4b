using System;
using System.Collections.Generic;

namespace NetCoreServer.Core;

/// <summary>
/// The segments handed to the transport in one send. Reused for the life of a connection so steady-state
/// sending allocates nothing; a partial send trims the front and the rest is sent again. The lists start empty and
/// grow to the largest batch seen, so an idle connection that never sent much pays almost nothing for them.
/// </summary>
internal sealed class InFlightBatch
{
    private readonly List<SendQueue.Segment> _segments = new();
    private readonly List<ArraySegment<byte>> _views = new();

    public int Count => _segments.Count;

    public long Bytes { get; private set; }

    /// <summary>The bytes still to send, as the transport wants them.</summary>
    public IReadOnlyList<ArraySegment<byte>> Views => _views;

    public void Add(SendQueue.Segment segment)
    {
        _segments.Add(segment);
        _views.Add(new ArraySegment<byte>(segment.Array, segment.Offset, segment.Count));
        Bytes += segment.Count;
    }

    /// <summary>Drops <paramref name="sent"/> bytes from the front, releasing segments that are done.</summary>
    public void Consume(int sent)
    {
        Bytes -= sent;
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
        foreach (var segment in _segments)
            segment.Release();
        _segments.Clear();
        _views.Clear();
        Bytes = 0;
    }
}
