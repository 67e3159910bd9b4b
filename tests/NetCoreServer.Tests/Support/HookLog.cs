using System.Collections.Generic;
using System.Linq;

namespace NetCoreServer.Tests.Support;

/// <summary>Ordered record of hook names, safe from any thread.</summary>
internal sealed class HookLog
{
    private readonly List<string> _entries = new();

    public void Add(string entry)
    {
        lock (_entries)
            _entries.Add(entry);
    }

    public void Clear()
    {
        lock (_entries)
            _entries.Clear();
    }

    public string[] Snapshot()
    {
        lock (_entries)
            return _entries.ToArray();
    }

    /// <summary>The log without repeated data hooks, so the connect/disconnect skeleton can be compared exactly.</summary>
    public string[] Skeleton(params string[] drop)
    {
        var result = new List<string>();
        foreach (var entry in Snapshot().Where(e => !drop.Contains(e)))
        {
            if (result.Count == 0 || result[^1] != entry)
                result.Add(entry);
        }
        return result.ToArray();
    }
}
