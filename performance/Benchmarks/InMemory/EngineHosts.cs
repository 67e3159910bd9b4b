using System;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Transports;

namespace NetCoreServer.Performance.Benchmarks.InMemory;

/// <summary>An engine host whose hooks do nothing but what a benchmark needs; the engine is attached after creation.</summary>
internal abstract class BenchmarkHost : IStreamSessionHost
{
    public StreamSessionEngine Engine { get; private set; } = null!;

    /// <summary>Makes this host's engine over <paramref name="transport"/> and starts it connected (and receiving, unless told not to).</summary>
    public StreamSessionEngine Start(IStreamTransport transport, MulticastLog? log = null, bool receive = true)
    {
        Engine = new StreamSessionEngine(transport, this);
        if (!Engine.StartConnected(receive, log).IsCompletedSuccessfully)
            throw new InvalidOperationException("an in-memory transport is ready at once");
        return Engine;
    }

    /// <summary>The options the engine reads (the defaults).</summary>
    public EngineOptions EngineOptions { get; } = new();

    public abstract int EngineReceived(byte[] buffer, int offset, int size);

    public virtual void EngineSent(long sent, long pending)
    {
    }

    public void EngineConnecting()
    {
    }

    public void EngineConnected()
    {
    }

    public void EngineHandshaking()
    {
    }

    public void EngineHandshaked()
    {
    }

    public void EngineWritabilityChanged(bool writable)
    {
    }

    public void EngineEmpty()
    {
    }

    public void EngineError(SocketError error)
    {
    }

    public void EngineHandlerException(Exception exception) => Console.Error.WriteLine(exception);

    public void EngineDisconnecting()
    {
    }

    public void EngineDisconnected()
    {
    }

    public void EngineReleased()
    {
    }

    public void EngineCounted(long received, long sent)
    {
    }
}

/// <summary>A session that only sends (multicast fan-out): it never receives.</summary>
internal sealed class SendingHost : BenchmarkHost
{
    public override int EngineReceived(byte[] buffer, int offset, int size) => throw new InvalidOperationException("a sending host does not receive");
}

/// <summary>A server session that sends back what it receives, as an echo session's OnReceived does with SendAsync.</summary>
internal sealed class EchoHost : BenchmarkHost
{
    public override int EngineReceived(byte[] buffer, int offset, int size)
    {
        if (Engine.Enqueue(buffer.AsSpan(offset, size)) != SendStatus.Accepted)
            throw new InvalidOperationException("the echo was refused");
        return size;
    }
}

/// <summary>
/// A receiver that keeps the first bytes of each round (up to its buffer's size) and completes a signal once the
/// round's expected byte count has arrived.
/// </summary>
internal sealed class ReceivingHost : BenchmarkHost
{
    // The benchmark returns the wait as a ValueTask that BenchmarkDotNet blocks on: waking it inline allocates nothing.
    private readonly AsyncSignal _signal = new(inline: true);
    private readonly byte[] _first;
    private long _expected;
    private long _received;

    public ReceivingHost(int keep) => _first = new byte[keep];

    /// <summary>The first bytes of the round (up to the size given at construction).</summary>
    public ReadOnlySpan<byte> First => _first.AsSpan(0, (int)Math.Min(_first.Length, Received));

    public long Received => Interlocked.Read(ref _received);

    /// <summary>Arms a round of <paramref name="bytes"/> bytes; call before anything is sent.</summary>
    public ValueTask Expect(long bytes)
    {
        _signal.Reset();
        Interlocked.Exchange(ref _received, 0);
        Volatile.Write(ref _expected, bytes);
        return _signal.WaitAsync();
    }

    public override int EngineReceived(byte[] buffer, int offset, int size)
    {
        // Calls never overlap for one connection, so the count read here is this call's starting point.
        var at = Interlocked.Read(ref _received);
        if (at < _first.Length)
            System.Buffer.BlockCopy(buffer, offset, _first, (int)at, (int)Math.Min(size, _first.Length - at));
        if (Interlocked.Add(ref _received, size) == Volatile.Read(ref _expected))
            _signal.Set();
        return size;
    }
}
