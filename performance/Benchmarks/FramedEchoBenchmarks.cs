using System;
using System.Linq;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using NetCoreServer.Engine;
using NetCoreServer.Performance.Benchmarks.InMemory;
using NetCoreServer.Protocols.Framing;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// One read of <see cref="Messages"/> length-prefixed messages (4-byte big-endian length, 28-byte payload: the suite's
/// framed row) echoed message by message, over an in-memory transport: the framing's parse and frame writing and the
/// engine's cork, without a socket or a second process sharing the cores. Steady state allocates nothing.
/// </summary>
[MemoryDiagnoser]
public class FramedEchoBenchmarks
{
    private const int Payload = 28;
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);

    private byte[] _wire = [];
    private ReceivingHost _peer = null!;
    private FramedEchoHost _echo = null!;

    /// <summary>Messages in one read.</summary>
    [Params(1, 100)]
    public int Messages { get; set; }

    /// <summary>Connects a peer engine to an echoing framed engine and checks one round.</summary>
    [GlobalSetup]
    public void Setup()
    {
        var framing = MessageFraming.LengthPrefixed(4);
        var one = new byte[4 + Payload];
        one[3] = Payload;
        for (var i = 0; i < Payload; i++)
            one[4 + i] = (byte)i;
        _wire = Enumerable.Repeat(one, Messages).SelectMany(bytes => bytes).ToArray();

        var (peerEnd, echoEnd) = InMemoryDuplexTransport.CreatePair(inline: true);
        _peer = new ReceivingHost(_wire.Length);
        _echo = new FramedEchoHost(framing);
        _echo.Start(echoEnd);
        _peer.Start(peerEnd);
        Round().AsTask().WaitAsync(s_timeout).GetAwaiter().GetResult();
        if (!_peer.First.SequenceEqual(_wire))
            throw new InvalidOperationException("the messages did not come back whole and framed");
    }

    /// <summary>Disconnects both engines.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        _peer.Engine.Disconnect(DisconnectReason.Local);
        Task.WhenAll(_peer.Engine.Completion, _echo.Engine.Completion).WaitAsync(s_timeout).GetAwaiter().GetResult();
    }

    /// <summary>Sends the messages as one write and waits until every echo has arrived.</summary>
    [Benchmark]
    public ValueTask Round()
    {
        var echoed = _peer.Expect(_wire.Length);
        if (_peer.Engine.Enqueue(_wire) != SendStatus.Accepted)
            throw new InvalidOperationException("the peer refused the messages");
        return echoed;
    }

    /// <summary>An engine host that cuts messages as the framed protocol does and sends each back with SendMessage's writer.</summary>
    private sealed class FramedEchoHost(MessageFraming framing) : BenchmarkHost
    {
        private int _scanned;

        public override int EngineReceived(byte[] buffer, int offset, int size)
        {
            var data = buffer.AsSpan(offset, size);
            var consumed = 0;
            while (framing.Next(data[consumed..], ref _scanned, out var start, out var length, out var used) == FrameScan.Message)
            {
                var reply = new FramedMessage(framing, data.Slice(consumed + start, length));
                if (Engine.EnqueueWritten(ref reply) != SendStatus.Accepted)
                    throw new InvalidOperationException("the echo was refused");
                consumed += used;
            }
            return consumed;
        }
    }
}
