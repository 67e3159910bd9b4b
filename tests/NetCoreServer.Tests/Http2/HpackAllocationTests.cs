using System;
using System.Buffers;
using System.Text;
using NetCoreServer.Protocols.Http2;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// Steady state allocates nothing: decoding header blocks (indexed fields, Huffman literals, literals added to the
/// dynamic table with evictions) and encoding them into a reused buffer, measured with the current thread's allocation
/// counter around 10,000 blocks after a warm-up (which lets the table's arrays grow and the JIT settle).
/// </summary>
[TestFixture]
[NonParallelizable]
public sealed class HpackAllocationTests
{
    private const int Warmup = 2_000;
    private const int Measured = 10_000;

    [Test]
    public void DecodingBlocksAllocatesNothing()
    {
        // C.4.1 (indexed fields, a Huffman literal added to the table) and a block whose literal changes every time,
        // so entries keep being added and evicted from a 256-byte table.
        var fixedBlock = HpackTesting.Hex("8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff");
        var changing = HpackTesting.Hex("82 86 84 40 0a 637573746f6d2d6b6579 06 000000000000");
        var decoder = new HpackDecoder(maxTableSizeLimit: 256);
        var sink = new CountingSink();
        void Run(int count)
        {
            for (var i = 0; i < count; i++)
            {
                BitConverter.TryWriteBytes(changing.AsSpan(changing.Length - 4), i);
                if (decoder.Decode(fixedBlock, sink) != HpackDecodeResult.Ok || decoder.Decode(changing, sink) != HpackDecodeResult.Ok)
                    throw new AssertionException(decoder.ErrorReason ?? "decode failed");
            }
        }
        Run(Warmup);
        var before = GC.GetAllocatedBytesForCurrentThread();
        Run(Measured);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        TestContext.Out.WriteLine($"{allocated} bytes for {2 * Measured} blocks, {sink.Count} fields");
        Assert.That(allocated, Is.EqualTo(0));
    }

    [Test]
    public void EncodingBlocksIntoAReusedBufferAllocatesNothing()
    {
        var encoder = new HpackEncoder();
        var output = new ArrayBufferWriter<byte>(4096);
        var status = Encoding.ASCII.GetBytes(":status");
        var ok = Encoding.ASCII.GetBytes("200");
        var contentType = Encoding.ASCII.GetBytes("content-type");
        var json = Encoding.ASCII.GetBytes("application/json");
        var length = Encoding.ASCII.GetBytes("content-length");
        var requestId = Encoding.ASCII.GetBytes("x-request-id");
        var value = new byte[8];
        void Run(int count)
        {
            for (var i = 0; i < count; i++)
            {
                output.ResetWrittenCount();
                encoder.BeginBlock(output);
                encoder.Encode(status, ok, output);
                encoder.Encode(contentType, json, output);
                BitConverter.TryWriteBytes(value, (long)i);
                encoder.Encode(length, value.AsSpan(0, 3), output);
                encoder.Encode(requestId, value, output);
            }
        }
        Run(Warmup);
        var before = GC.GetAllocatedBytesForCurrentThread();
        Run(Measured);
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        TestContext.Out.WriteLine($"{allocated} bytes for {Measured} blocks; table {encoder.Table.Count} entries, {encoder.Table.Size} bytes");
        Assert.That(allocated, Is.EqualTo(0));
    }

    private sealed class CountingSink : IHpackHeaderSink
    {
        public long Count { get; private set; }

        public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, bool neverIndexed) => Count++;
    }
}
