using System;
using System.Net;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// One 32-byte message to an echo server and back over loopback: the library's client and server, against the same
/// exchange on bare sockets. Both sides run in this process. The benchmark methods return pooled ValueTasks and the
/// client wakes BenchmarkDotNet inline, so the Allocated column shows what the sockets and the library allocate, not
/// the harness (an async Task method that waits allocates its own state machine each call).
/// </summary>
[MemoryDiagnoser]
public class RoundTripBenchmarks
{
    private const int MessageSize = 32;
    private static readonly TimeSpan s_connectTimeout = TimeSpan.FromSeconds(10);

    private readonly byte[] _message = new byte[MessageSize];
    private readonly byte[] _rawReceiveBuffer = new byte[MessageSize];
    private LoopbackEchoServer _server = null!;
    private RoundTripClient _client = null!;
    private RawLoopbackEchoServer _rawServer = null!;
    private Socket _rawClient = null!;

    /// <summary>Starts both servers and connects both clients.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _message.AsSpan().Fill((byte)'x');

        _server = new LoopbackEchoServer();
        if (!_server.Start())
            throw new InvalidOperationException("the library's echo server did not start");
        _client = new RoundTripClient((IPEndPoint)_server.Endpoint);
        if (!_client.ConnectAndWaitAsync().WaitAsync(s_connectTimeout).GetAwaiter().GetResult())
            throw new InvalidOperationException($"the library's client could not connect to {_server.Endpoint}");

        _rawServer = new RawLoopbackEchoServer();
        _rawClient = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        _rawClient.Connect(_rawServer.Endpoint);
    }

    /// <summary>Disconnects the clients and stops the servers.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        _client.DisconnectAndWaitAsync().WaitAsync(s_connectTimeout).GetAwaiter().GetResult();
        _client.Dispose();
        _server.Stop();
        _server.Dispose();
        _rawClient.Dispose();
        _rawServer.Dispose();
    }

    /// <summary>The baseline: send and receive on bare sockets.</summary>
    [Benchmark(Baseline = true)]
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask RawSockets()
    {
        await _rawClient.SendAsync(_message, SocketFlags.None).ConfigureAwait(false);
        var received = 0;
        while (received < MessageSize)
        {
            var count = await _rawClient.ReceiveAsync(_rawReceiveBuffer.AsMemory(received), SocketFlags.None).ConfigureAwait(false);
            if (count == 0)
                throw new InvalidOperationException("the raw echo server closed the connection");
            received += count;
        }
    }

    /// <summary>SendAsync (queue and return), then wait for OnReceived to have seen the echo.</summary>
    [Benchmark]
    public ValueTask LibrarySendAsync()
    {
        var echoed = _client.ExpectAsync(MessageSize);
        if (!_client.SendAsync(_message))
            throw new InvalidOperationException("SendAsync refused the message");
        return echoed;
    }

    /// <summary>SendAndWaitAsync (completes once the bytes were handed to the socket), then wait for the echo.</summary>
    [Benchmark]
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    public async ValueTask LibrarySendAndWaitAsync()
    {
        var echoed = _client.ExpectAsync(MessageSize);
        if (!await _client.SendAndWaitAsync(_message).ConfigureAwait(false))
            throw new InvalidOperationException("SendAndWaitAsync refused the message");
        await echoed.ConfigureAwait(false);
    }
}
