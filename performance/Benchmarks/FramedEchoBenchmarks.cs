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

    private byte[] _wire = [];
    private EchoPair _pair = null!;

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

        _pair = new EchoPair(new FramedEchoHost(framing), _wire.Length, inline: true);
        _pair.RoundOrFail(_wire, _wire.Length);
        if (!_pair.Peer.First.SequenceEqual(_wire))
            throw new InvalidOperationException("the messages did not come back whole and framed");
    }

    /// <summary>Disconnects both engines.</summary>
    [GlobalCleanup]
    public void Cleanup() => _pair.Close();

    /// <summary>Sends the messages as one write and waits until every echo has arrived.</summary>
    [Benchmark]
    public ValueTask Round() => _pair.Round(_wire, _wire.Length);

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
