using System;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using NetCoreServer.Engine;
using NetCoreServer.Performance.Benchmarks.InMemory;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// A response built once and sent many times, as an HTTP session's SendResponseAsync (queued, head and body as one
/// unit) and SendResponse (written directly when nothing else is sending) do it, from a session engine to a client
/// engine over an in-memory transport; each operation ends when the client has received the whole response. The
/// client is resumed on the sending thread, so the figure is the engines' CPU cost. Steady state allocates nothing.
/// </summary>
[MemoryDiagnoser]
public class HttpResponseSendBenchmarks
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);

    private readonly HttpResponse _response = new();
    private ReceivingHost _client = null!;
    private StreamSessionEngine _session = null!;
    private int _size;

    /// <summary>Builds the response, connects the engines and checks that each kind of send delivers it unchanged.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _response.MakeGetResponse("{\"id\":7,\"name\":\"widget\",\"quantity\":12,\"tags\":[\"a\",\"b\"]}", "application/json");
        _size = (int)_response.Cache.Size;
        var (clientEnd, sessionEnd) = InMemoryDuplexTransport.CreatePair(inline: true);
        _client = new ReceivingHost(_size);
        _session = new SendingHost().Start(sessionEnd, receive: false);
        _client.Start(clientEnd);

        var expected = _response.Cache.AsSpan().ToArray();
        SendResponseAsync().AsTask().WaitAsync(s_timeout).GetAwaiter().GetResult();
        if (!_client.First.SequenceEqual(expected))
            throw new InvalidOperationException("the queued response did not arrive unchanged");
        SendResponse().AsTask().WaitAsync(s_timeout).GetAwaiter().GetResult();
        if (!_client.First.SequenceEqual(expected))
            throw new InvalidOperationException("the directly written response did not arrive unchanged");
    }

    /// <summary>Disconnects both engines.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        _session.Disconnect(DisconnectReason.Local);
        Task.WhenAll(_session.Completion, _client.Engine.Completion).WaitAsync(s_timeout).GetAwaiter().GetResult();
    }

    /// <summary>Queues head and body as one message (SendResponseAsync) and waits until the client has them.</summary>
    [Benchmark]
    public ValueTask SendResponseAsync()
    {
        var received = _client.Expect(_size);
        _response.Store.Split(out var head, out var body);
        if (_session.Enqueue(head, body) != SendStatus.Accepted)
            throw new InvalidOperationException("the session refused the response");
        return received;
    }

    /// <summary>Writes head and body directly (SendResponse, nothing else sending) and waits until the client has them.</summary>
    [Benchmark]
    public ValueTask SendResponse()
    {
        var received = _client.Expect(_size);
        _response.Store.Split(out var head, out var body);
        if (_session.SendBlocking(head, body) != _size)
            throw new InvalidOperationException("the session did not write the whole response");
        return received;
    }
}
