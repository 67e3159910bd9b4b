using System;
using System.Collections.Generic;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Transports;

namespace NetCoreServer.Performance.Benchmarks.InMemory;

/// <summary>
/// A send-only in-memory transport for a session that never receives (its engine is started without a receive loop):
/// every send completes at once, its bytes are counted, and the first bytes of each round are kept for checking. When
/// a round's expected count is reached it reports to its <see cref="ReceiverGroup"/>.
/// </summary>
internal sealed class SinkTransport : IStreamTransport
{
    private readonly ReceiverGroup _group;
    private readonly byte[] _first;
    private long _expected;
    private long _sent;

    public SinkTransport(ReceiverGroup group, int keep)
    {
        _group = group;
        _first = new byte[keep];
    }

    /// <summary>The first bytes sent in this round (up to the size given at construction).</summary>
    public ReadOnlySpan<byte> First => _first.AsSpan(0, (int)Math.Min(_first.Length, Interlocked.Read(ref _sent)));

    /// <summary>Arms a round of <paramref name="bytes"/> bytes; call before anything is multicast.</summary>
    public void Expect(long bytes)
    {
        Interlocked.Exchange(ref _sent, 0);
        Volatile.Write(ref _expected, bytes);
    }

    public ITlsInfo? Tls => null;

    public System.Net.EndPoint? AdmittedEndPoint { get; set; }

    public ValueTask<SocketError> HandshakeAsync() => new(SocketError.Success);

    private ReceiveRelay? _relay;

    public bool TryReceive(Memory<byte> buffer, IReceiveCompletion completion, out IoResult result)
        => ReceiveRelay.Relay(ref _relay, ReceiveAsync(buffer), completion, out result);

    public ValueTask<IoResult> ReceiveAsync(Memory<byte> buffer) => new(IoResult.Failed(SocketError.OperationNotSupported));

    public ValueTask<IoResult> SendAsync(IReadOnlyList<ArraySegment<byte>> batch)
    {
        var total = 0;
        for (var i = 0; i < batch.Count; i++)
        {
            Keep(batch[i]);
            total += batch[i].Count;
        }
        return new ValueTask<IoResult>(new IoResult(total, SocketError.Success));
    }

    public IoResult Send(ReadOnlySpan<byte> data)
    {
        Keep(data);
        return new IoResult(data.Length, SocketError.Success);
    }

    public IoResult Receive(Span<byte> buffer) => IoResult.Failed(SocketError.OperationNotSupported);

    public ValueTask ShutdownSendAsync() => ValueTask.CompletedTask;

    public void Close()
    {
    }

    public void Dispose()
    {
    }

    // One sender at a time (the engine's guarantee), so the count read here is this send's starting point.
    private void Keep(ReadOnlySpan<byte> data)
    {
        var at = Interlocked.Read(ref _sent);
        if (at < _first.Length)
            data[..(int)Math.Min(data.Length, _first.Length - at)].CopyTo(_first.AsSpan((int)at));
        if (Interlocked.Add(ref _sent, data.Length) == Volatile.Read(ref _expected))
            _group.OneDone();
    }
}
