using System.Collections.Generic;

namespace NetCoreServer.Compat.Caching;

/// <summary>One cached value. Immutable but for its place in the eviction list, which the store's lock guards.</summary>
internal sealed class CacheEntry
{
    public CacheEntry(string key, byte[] value, long expiresAt, FileOrigin? origin)
    {
        Key = key;
        Value = value;
        ExpiresAt = expiresAt;
        Origin = origin;
        Cost = CacheStore.CostOf(value.LongLength, key);
    }

    public string Key { get; }

    public byte[] Value { get; }

    /// <summary>Timestamp (the store's clock) at which it expires; long.MaxValue for never.</summary>
    public long ExpiresAt { get; }

    /// <summary>The file it was read from; null for a value added by hand (never evicted).</summary>
    public FileOrigin? Origin { get; }

    /// <summary>What it counts toward the store's total size.</summary>
    public long Cost { get; }

    /// <summary>Its node in the eviction list while cached, for file entries.</summary>
    public LinkedListNode<CacheEntry>? Node { get; set; }
}
