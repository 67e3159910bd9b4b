using System;
using System.Linq;
using System.Net;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// TcpServer.Multicast of one message to 10 sessions, measured as a round of <see cref="MessagesPerRound"/> messages
/// that ends when every client has received all of them; the figure is per message.
/// </summary>
[MemoryDiagnoser]
public class MulticastBenchmarks
{
    private const int Sessions = 10;
    private const int MessagesPerRound = 100;
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);

    // The benchmark returns the wait as a ValueTask that BenchmarkDotNet blocks on: waking it inline allocates nothing.
    private readonly ReceiverGroup _group = new(inline: true);
    private byte[] _message = [];
    private SessionCountingServer _server = null!;
    private MulticastReceiver[] _receivers = [];

    /// <summary>Message size in bytes.</summary>
    [Params(32, 4096)]
    public int Size { get; set; }

    /// <summary>Starts the server and connects the receivers.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _message = Enumerable.Repeat((byte)'m', Size).ToArray();
        _server = new SessionCountingServer(Sessions);
        if (!_server.Start())
            throw new InvalidOperationException("the server did not start");
        var endpoint = (IPEndPoint)_server.Endpoint;
        _receivers = Enumerable.Range(0, Sessions).Select(_ => new MulticastReceiver(endpoint, _group)).ToArray();
        var connected = Task.WhenAll(_receivers.Select(receiver => receiver.ConnectAndWaitAsync())).WaitAsync(s_timeout).GetAwaiter().GetResult();
        if (!connected.All(ok => ok))
            throw new InvalidOperationException($"not every receiver could connect to {endpoint}");

        // A client can be connected before the server side has finished its own connect hooks.
        _server.AllConnected.WaitAsync(s_timeout).GetAwaiter().GetResult();
    }

    /// <summary>Disconnects the receivers and stops the server.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        Task.WhenAll(_receivers.Select(receiver => receiver.DisconnectAndWaitAsync())).WaitAsync(s_timeout).GetAwaiter().GetResult();
        foreach (var receiver in _receivers)
            receiver.Dispose();
        _server.Stop();
        _server.Dispose();
    }

    /// <summary>Multicasts a round of messages and waits until all 10 clients have them.</summary>
    [Benchmark(OperationsPerInvoke = MessagesPerRound)]
    public ValueTask Multicast()
    {
        foreach (var receiver in _receivers)
            receiver.Expect((long)MessagesPerRound * Size);
        var delivered = _group.BeginRound(Sessions);
        for (var i = 0; i < MessagesPerRound; i++)
            _server.Multicast(_message);
        return delivered;
    }
}
