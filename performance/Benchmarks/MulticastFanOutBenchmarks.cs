using System;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using NetCoreServer.Engine;
using NetCoreServer.Performance.Benchmarks.InMemory;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// Multicast to 100 sessions without sockets: what TcpServer.Multicast does (one copy into the shared log, a send-limit
/// check per session when its credit runs out, publish, wake the idle send loops), with each session's send loop
/// sending from the log into an in-memory sink. A round of <see cref="MessagesPerRound"/> messages ends when every
/// session has sent all of them; the figure is per message (for all 100 sessions). Steady state allocates nothing.
/// </summary>
[MemoryDiagnoser]
public class MulticastFanOutBenchmarks
{
    private const int Sessions = 100;
    private const int MessagesPerRound = 100;
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);

    private readonly MulticastLog _log = new();
    // The benchmark returns the wait as a ValueTask that BenchmarkDotNet blocks on: waking it inline allocates nothing.
    private readonly ReceiverGroup _group = new(inline: true);
    private byte[] _message = [];
    private SinkTransport[] _sinks = [];
    private StreamSessionEngine[] _engines = [];
    // Each session's credit, as MulticastFanout keeps it beside its snapshot.
    private long[] _credits = [];

    /// <summary>Message size in bytes.</summary>
    [Params(32, 4096)]
    public int Size { get; set; }

    /// <summary>Connects the sessions to the log and checks that a round reaches every one of them whole and in order.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _message = Enumerable.Range(0, Size).Select(i => (byte)(i % 251)).ToArray();
        _sinks = Enumerable.Range(0, Sessions).Select(_ => new SinkTransport(_group, 2 * Size)).ToArray();
        _engines = _sinks.Select(sink => new SendingHost().Start(sink, _log, receive: false)).ToArray();
        _credits = new long[Sessions];

        Round().AsTask().WaitAsync(s_timeout).GetAwaiter().GetResult();
        var expected = _message.Concat(_message).ToArray();
        if (!_sinks.All(sink => sink.First.SequenceEqual(expected)))
            throw new InvalidOperationException("a session did not send the multicast messages whole and in order");
    }

    /// <summary>Disconnects the sessions.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        foreach (var engine in _engines)
            engine.Disconnect(DisconnectReason.Local);
        Task.WhenAll(_engines.Select(engine => engine.Completion)).WaitAsync(s_timeout).GetAwaiter().GetResult();
    }

    /// <summary>Multicasts a round of messages and waits until all 100 sessions have sent them.</summary>
    [Benchmark(OperationsPerInvoke = MessagesPerRound)]
    public ValueTask Round()
    {
        foreach (var sink in _sinks)
            sink.Expect((long)MessagesPerRound * Size);
        var delivered = _group.BeginRound(Sessions);
        for (var i = 0; i < MessagesPerRound; i++)
            Multicast(_message);
        return delivered;
    }

    // The steps of MulticastFanout.Publish for sessions that all receive multicast.
    private void Multicast(ReadOnlySpan<byte> message)
    {
        lock (_log.Lock)
        {
            var start = _log.Written;
            _log.Write(message);
            var end = _log.Written;
            var length = end - start;
            for (var i = 0; i < _engines.Length; i++)
            {
                if (_credits[i] >= length)
                    _credits[i] -= length;
                else if (_engines[i].OfferLogged(start, end, out _credits[i]) != SendStatus.Accepted)
                    throw new InvalidOperationException("a session refused a multicast message");
            }
            _log.Publish();
            Interlocked.MemoryBarrier();
            foreach (var engine in _engines)
                engine.WakeForLog();
        }
    }
}
