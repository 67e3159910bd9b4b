using System.Net;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>A client that completes its signal once the bytes it expects have come back.</summary>
internal sealed class RoundTripClient(IPEndPoint endpoint) : TcpClient(endpoint)
{
    // Waited on by BenchmarkDotNet or a pooled async method: waking it inline allocates nothing.
    private readonly AsyncSignal _signal = new(inline: true);
    private long _outstanding;

    /// <summary>Arms the signal for <paramref name="bytes"/> more bytes; call before sending them.</summary>
    public ValueTask ExpectAsync(int bytes)
    {
        _signal.Reset();
        Volatile.Write(ref _outstanding, bytes);
        return _signal.WaitAsync();
    }

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        // The echo may come back in pieces; the piece that completes the message sets the signal, exactly once.
        if (Interlocked.Add(ref _outstanding, -size) == 0)
            _signal.Set();
    }
}
