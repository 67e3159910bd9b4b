using System;
using NetCoreServer.Testing;
using NUnit.Framework;
using NetCoreServer.Protocols.WebSockets;

namespace NetCoreServer.Tests.WebSockets;

/// <summary>
/// Steady state allocates nothing: decoding and encoding a small text message, in both roles, measured with the
/// current thread's allocation counter around 10,000 messages after a warm-up (pooled buffers filled, JIT settled).
/// Compressed messages are measured and reported too.
/// </summary>
[TestFixture]
[NonParallelizable]
[Category(TestLeg.Isolated)]
public sealed class WsAllocationTests
{
    private const int Warmup = 2_000;
    private const int Measured = 10_000;

    private static readonly byte[] s_text = "{\"type\":\"chat\",\"text\":\"hello, world\"}"u8.ToArray();

    [TestCase(true, TestName = "a server decoding small masked text messages allocates nothing")]
    [TestCase(false, TestName = "a client decoding small text messages allocates nothing")]
    public void DecodingAllocatesNothing(bool server)
    {
        var role = server ? WsRole.Server : WsRole.Client;
        var wire = Encode(role == WsRole.Server ? WsRole.Client : WsRole.Server, null);
        using var decoder = new WsFrameDecoder(role);
        var allocated = Measure(() => DecodeOnce(decoder, wire));
        TestContext.Out.WriteLine($"{role} decoding: {allocated} bytes allocated over {Measured} messages");
        Assert.That(allocated, Is.Zero);
    }

    [TestCase(true, TestName = "a server encoding small text messages allocates nothing")]
    [TestCase(false, TestName = "a client encoding and masking small text messages allocates nothing")]
    public void EncodingAllocatesNothing(bool server)
    {
        var role = server ? WsRole.Server : WsRole.Client;
        using var writer = new WsFrameWriter(role);
        var output = new byte[256];
        var allocated = Measure(() =>
        {
            var frame = writer.Prepare(WsOpcode.Text, s_text);
            frame.CopyTo(output);
            return frame.Length == s_text.Length + (role == WsRole.Client ? 6 : 2);
        });
        TestContext.Out.WriteLine($"{role} encoding: {allocated} bytes allocated over {Measured} messages");
        Assert.That(allocated, Is.Zero);
    }

    [Test]
    public void CompressedMessagesWithContextTakeover()
    {
        var parameters = new WsDeflateParameters(false, false, 0, 0);
        using var writer = new WsFrameWriter(WsRole.Server, parameters.CreateDeflater(WsRole.Server));
        using var decoder = new WsFrameDecoder(WsRole.Client, parameters.CreateInflater(WsRole.Client));
        var output = new byte[256];
        var allocated = Measure(() =>
        {
            var frame = writer.Prepare(WsOpcode.Text, s_text);
            frame.CopyTo(output);
            return DecodeOnce(decoder, output.AsSpan(0, frame.Length));
        });
        TestContext.Out.WriteLine($"compressed round trip: {allocated} bytes allocated over {Measured} messages ({(double)allocated / Measured:0.0} per message)");
        Assert.That(allocated, Is.Zero);
    }

    private static bool DecodeOnce(WsFrameDecoder decoder, ReadOnlySpan<byte> wire)
    {
        if (decoder.Read(wire, out var consumed) != WsDecodeResult.Message || consumed != wire.Length)
            return false;
        return decoder.Payload.Count == s_text.Length;
    }

    private static byte[] Encode(WsRole sender, WsDeflater? deflater)
    {
        using var writer = new WsFrameWriter(sender, deflater);
        var frame = writer.Prepare(WsOpcode.Text, s_text);
        var wire = new byte[frame.Length];
        frame.CopyTo(wire);
        return wire;
    }

    /// <summary>Bytes allocated on this thread by <see cref="Measured"/> runs of <paramref name="once"/> after <see cref="Warmup"/> runs.</summary>
    private static long Measure(Func<bool> once)
    {
        for (var i = 0; i < Warmup; i++)
            Assert.That(once(), Is.True, "warm-up message");
        var before = GC.GetAllocatedBytesForCurrentThread();
        var failures = 0;
        for (var i = 0; i < Measured; i++)
            failures += once() ? 0 : 1;
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.That(failures, Is.Zero, "every message went through");
        return allocated;
    }
}
