using System;
using System.Collections.Concurrent;
using System.Net.Sockets;
using System.Threading;

namespace NetCoreServer.Stress;

/// <summary>What every stress server's sessions count, and whether they echo; one per server, safe from any thread.</summary>
internal sealed class StressCounters
{
    private readonly long[] _closed = new long[16];
    private long _refused;
    private long _refusals;
    private long _opened;
    private long _hookFaults;

    public StressCounters(bool echo) => Echo = echo;

    public bool Echo { get; }

    /// <summary>Each session by the index its client sent first (4 bytes, little-endian), for scenarios that tell them apart.</summary>
    public ConcurrentDictionary<int, StreamSession> ByClient { get; } = new();

    /// <summary>Connections refused by the caps.</summary>
    public long Refused => Interlocked.Read(ref _refused);

    /// <summary>Episodes of a send limit refusing data: a refused send (OnError NoBufferSpaceAvailable) or skipped multicasts (OnSlowConsumer), once per episode.</summary>
    public long Refusals => Interlocked.Read(ref _refusals);

    public void OnRefused() => Interlocked.Increment(ref _refused);

    public void OnSlowConsumer() => Interlocked.Increment(ref _refusals);

    public void OnError(SocketError error)
    {
        if (error == SocketError.NoBufferSpaceAvailable)
            Interlocked.Increment(ref _refusals);
        else
            Errors.Add(error);
    }

    /// <summary>Errors other than refused sends that sessions reported through OnError.</summary>
    public ConcurrentBag<SocketError> Errors { get; } = new();

    /// <summary>Sessions that ran OnConnected.</summary>
    public long Opened => Interlocked.Read(ref _opened);

    /// <summary>Hook-order faults: OnConnected twice, OnDisconnected twice, or OnDisconnected without OnConnected.</summary>
    public long HookFaults => Interlocked.Read(ref _hookFaults);

    /// <summary>The disconnect timeout each session gets in OnConnected; null keeps the library's default.</summary>
    public TimeSpan? DisconnectTimeout { get; set; }

    /// <summary>A session's OnConnected; <paramref name="life"/> is that session's own field (0 new, 1 connected, 2 disconnected).</summary>
    public void OnOpened(StreamSession session, ref int life)
    {
        if (DisconnectTimeout is { } timeout)
            session.OptionDisconnectTimeout = timeout;
        Interlocked.Increment(ref _opened);
        if (Interlocked.CompareExchange(ref life, 1, 0) != 0)
            Interlocked.Increment(ref _hookFaults);
    }

    /// <summary>A session's OnDisconnected: counted by reason, once per session that was connected.</summary>
    public void OnClosed(ref int life, DisconnectReason reason)
    {
        if (Interlocked.Exchange(ref life, 2) != 1)
            Interlocked.Increment(ref _hookFaults);
        Interlocked.Increment(ref _closed[(int)reason]);
    }

    /// <summary>Sessions closed, by reason.</summary>
    public long ClosedWith(DisconnectReason reason) => Interlocked.Read(ref _closed[(int)reason]);

    /// <summary>Sessions closed, whatever the reason.</summary>
    public long Closed
    {
        get
        {
            long total = 0;
            for (var i = 0; i < _closed.Length; i++)
                total += Interlocked.Read(ref _closed[i]);
            return total;
        }
    }

    public void Received(StreamSession session, byte[] buffer, long offset, long size)
    {
        if (Echo)
            session.SendAsync(buffer, offset, size);
        else if (size >= 4)
            ByClient.TryAdd(BitConverter.ToInt32(buffer, (int)offset), session);
    }
}
