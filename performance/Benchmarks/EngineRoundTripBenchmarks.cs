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
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);

    private byte[] _message = [];
    private ReceivingHost _client = null!;
    private EchoHost _server = null!;

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
        var (clientEnd, serverEnd) = InMemoryDuplexTransport.CreatePair(Inline);
        _client = new ReceivingHost(Size);
        _server = new EchoHost();
        _server.Start(serverEnd);
        _client.Start(clientEnd);

        RoundTrip().AsTask().WaitAsync(s_timeout).GetAwaiter().GetResult();
        if (!_client.First.SequenceEqual(_message) || _client.Received != Size)
            throw new InvalidOperationException("the echo did not bring the message back unchanged");
    }

    /// <summary>Disconnects both engines.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        _client.Engine.Disconnect(DisconnectReason.Local);
        Task.WhenAll(_client.Engine.Completion, _server.Engine.Completion).WaitAsync(s_timeout).GetAwaiter().GetResult();
    }

    /// <summary>Queues the message on the client and waits until its echo has been received.</summary>
    [Benchmark]
    public ValueTask RoundTrip()
    {
        var echoed = _client.Expect(Size);
        if (_client.Engine.Enqueue(_message) != SendStatus.Accepted)
            throw new InvalidOperationException("the client refused the message");
        return echoed;
    }
}
