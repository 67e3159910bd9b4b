using System;
using System.Collections.Generic;

namespace NetCoreServer.Redis;

/// <summary>
/// The last sequence number seen from each other node, to count the messages that never arrived (a gap). Touched only
/// by the one subscription handler, which the Redis client runs one message at a time, so it takes no lock.
/// </summary>
internal sealed class SequenceTracker
{
    // Node ids change with every restart; past this many the table starts over (a gap of a forgotten node is then missed).
    private const int MaxNodes = 4096;

    private readonly Dictionary<Guid, ulong> _last = new();

    /// <summary>True when <paramref name="sequence"/> is after the last one seen from <paramref name="node"/> (or the node is new): not a replay.</summary>
    public bool IsAfterLast(Guid node, ulong sequence) => !_last.TryGetValue(node, out var last) || sequence > last;

    /// <summary>Notes a message; returns how many of that node's messages were skipped before it.</summary>
    public ulong Observe(Guid node, ulong sequence)
    {
        if (!_last.TryGetValue(node, out var last))
        {
            if (_last.Count >= MaxNodes)
                _last.Clear();
            _last[node] = sequence;
            return 0;
        }
        if (sequence <= last)
            return 0;
        _last[node] = sequence;
        return sequence - last - 1;
    }
}
