using System;
using System.Linq;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using NetCoreServer.Engine;
using NetCoreServer.Performance.Benchmarks.InMemory;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// One message from a client engine to an echo session's engine and back, over an in-memory transport: the engine's
/// send and receive paths on both sides without a socket. <see cref="Inline"/> resumes a waiting receiver on the
/// sending thread (the engines' CPU cost alone); otherwise on the thread pool, as a socket completion does (adds two
/// thread hops per round trip). Steady state allocates nothing.
/// </summary>
[MemoryDiagnoser]
public class EngineRoundTripBenchmarks
{
    private byte[] _message = [];
    private EchoPair _pair = null!;

    /// <summary>Message size in bytes.</summary>
    [Params(32, 4096)]
    public int Size { get; set; }

    /// <summary>Completions run on the sender's thread (true) or on the thread pool (false).</summary>
    [Params(true, false)]
    public bool Inline { get; set; }

    /// <summary>Connects a client engine to an echo engine and checks that a round trip brings the message back.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _message = Enumerable.Range(0, Size).Select(i => (byte)(i % 251)).ToArray();
        _pair = new EchoPair(new EchoHost(), Size, Inline);
        _pair.RoundOrFail(_message, Size);
        if (!_pair.Peer.First.SequenceEqual(_message) || _pair.Peer.Received != Size)
            throw new InvalidOperationException("the echo did not bring the message back unchanged");
    }

    /// <summary>Disconnects both engines.</summary>
    [GlobalCleanup]
    public void Cleanup() => _pair.Close();

    /// <summary>Queues the message on the client and waits until its echo has been received.</summary>
    [Benchmark]
    public ValueTask RoundTrip() => _pair.Round(_message, Size);
}
