using System;

namespace NetCoreServer.Performance.Common;

/// <summary>The outcome of one client benchmark run, with the figures derived from it.</summary>
public sealed class BenchmarkResult
{
    /// <summary>Protocol name, lower case.</summary>
    public required string Protocol { get; init; }

    /// <summary>Server address as given; for uds, the socket file.</summary>
    public required string Address { get; init; }

    /// <summary>Server port; 0 for uds.</summary>
    public required int Port { get; init; }

    /// <summary>Number of connections asked for.</summary>
    public required int Clients { get; init; }

    /// <summary>Messages in flight per client, or null for a benchmark without that figure.</summary>
    public required int? Messages { get; init; }

    /// <summary>Message size in bytes.</summary>
    public required int Size { get; init; }

    /// <summary>Seconds of benchmarking asked for.</summary>
    public required int Seconds { get; init; }

    /// <summary>Time actually measured, from the first connect to the final reading.</summary>
    public required TimeSpan Elapsed { get; init; }

    /// <summary>Bytes received by all clients.</summary>
    public required long TotalBytes { get; init; }

    /// <summary>OnError calls, failed connects and connections lost before the end.</summary>
    public required long Errors { get; init; }

    /// <summary>Datagrams the clients gave up waiting for (udp echo), or null for a benchmark that does not count them.</summary>
    public long? Lost { get; init; }

    /// <summary>Whole messages received: <see cref="TotalBytes"/> divided by <see cref="Size"/>.</summary>
    public long TotalMessages => TotalBytes / Size;

    /// <summary>Messages per second over <see cref="Elapsed"/>.</summary>
    public double MessagesPerSecond => TotalMessages / ElapsedSeconds;

    /// <summary>MiB received per second over <see cref="Elapsed"/>.</summary>
    public double MebibytesPerSecond => TotalBytes / ElapsedSeconds / (1024.0 * 1024.0);

    /// <summary>Time per message, in nanoseconds; infinity when no message arrived.</summary>
    public double NanosecondsPerMessage => TotalMessages == 0 ? double.PositiveInfinity : Elapsed.TotalNanoseconds / TotalMessages;

    private double ElapsedSeconds => Math.Max(Elapsed.TotalSeconds, 1e-9);
}
