using System;
using System.Buffers;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Http2;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// The codec against a real HTTP/2 client nobody here wrote: nghttp (nghttp2) sends three requests on one h2c
/// connection to a bare socket listener in the test, which reads them with our frame reader and HPACK decoder (the
/// later requests index the earlier ones' fields, and nghttp Huffman-codes its literals) and answers with our encoder
/// and frame writer; nghttp's verbose output shows what its own decoder made of our responses.
/// </summary>
[TestFixture]
public sealed class Http2NghttpInteropTests
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(30);

    [Test]
    public async Task NghttpRequestsDecodeAndOurResponsesDecodeInNghttp()
    {
        var nghttp = ExternalTool.Require("nghttp");
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        var paths = new[] { "/first", "/second?q=1", "/third/%C3%A9" };
        var client = ExternalTool.Run(nghttp,
            ["-v", "-H", "x-trace: abc123", "-H", "authorization: Bearer not-a-secret", .. paths.Select(p => $"http://127.0.0.1:{port}{p}")], s_timeout);

        using var cancel = new CancellationTokenSource(s_timeout);
        using var socket = await listener.AcceptSocketAsync(cancel.Token);
        var connection = new Connection(socket, cancel.Token);
        await connection.Send(buffer => Http2FrameWriter.WriteSettings(buffer, [(Http2SettingId.MaxConcurrentStreams, 100)]));

        var decoder = new HpackDecoder();
        var requests = new Dictionary<int, List<string>>();
        var block = new List<byte>();
        var ackSent = false;
        while (requests.Count < paths.Length)
        {
            var (type, flags, stream, payload) = await connection.ReadFrame();
            if (type == Http2FrameType.Settings && (flags & Http2FrameFlags.Ack) == 0 && !ackSent)
            {
                ackSent = true;
                await connection.Send(buffer => Http2FrameWriter.WriteSettingsAck(buffer));
            }
            if (type is not (Http2FrameType.Headers or Http2FrameType.Continuation))
                continue;
            block.AddRange(payload);
            if ((flags & Http2FrameFlags.EndHeaders) == 0)
                continue;
            var sink = new HpackTesting.FieldList(markNeverIndexed: true);
            Assert.That(decoder.Decode(block.ToArray(), sink), Is.EqualTo(HpackDecodeResult.Ok), decoder.ErrorReason);
            requests[stream] = sink.Fields;
            block.Clear();
        }

        var encoder = new HpackEncoder();
        foreach (var stream in requests.Keys.Order())
        {
            var output = new ArrayBufferWriter<byte>();
            encoder.BeginBlock(output);
            foreach (var (name, value) in new[] { (":status", "200"), ("content-type", "text/plain; charset=utf-8"), ("server", "NetCoreServer"), ("x-stream", stream.ToString(System.Globalization.CultureInfo.InvariantCulture)) })
                encoder.Encode(Encoding.ASCII.GetBytes(name), Encoding.ASCII.GetBytes(value), output);
            var fields = output.WrittenSpan.ToArray();
            await connection.Send(buffer => Http2FrameWriter.WriteHeaders(buffer, stream, fields, endStream: false, maxFrameSize: 16_384));
            await connection.Send(buffer => Http2FrameWriter.WriteData(buffer, stream, Encoding.ASCII.GetBytes($"hello {stream}\n"), endStream: true));
        }
        var result = await client;
        await connection.Send(buffer => Http2FrameWriter.WriteGoAway(buffer, requests.Keys.Max(), Http2ErrorCode.NoError, default));

        Assert.That(result.ExitCode, Is.EqualTo(0), result.Output + result.Error);
        var decoded = requests.OrderBy(r => r.Key).Select(r => r.Value).ToList();
        for (var i = 0; i < paths.Length; i++)
        {
            Assert.That(decoded[i], Does.Contain(":method: GET").And.Contain(":scheme: http").And.Contain($":path: {paths[i]}"));
            Assert.That(decoded[i], Does.Contain($":authority: 127.0.0.1:{port}").And.Contain("x-trace: abc123"));
            Assert.That(decoded[i].Any(f => f.StartsWith("authorization: Bearer not-a-secret", StringComparison.Ordinal)), Is.True);
            Assert.That(decoded[i].Any(f => f.StartsWith("user-agent: nghttp2/", StringComparison.Ordinal)), Is.True);
        }
        Assert.That(decoder.Table.Count, Is.GreaterThan(0), "nghttp indexed fields, which the later requests referenced");
        foreach (var stream in requests.Keys)
            Assert.That(result.Output, Does.Contain($"hello {stream}"), "nghttp received each body");
        Assert.That(result.Output, Does.Contain("content-type: text/plain; charset=utf-8").And.Contain("server: NetCoreServer").And.Contain("x-stream: "),
            "nghttp decoded our header blocks");
    }

    // A bare socket read through our frame reader: partial frames stay in the buffer until the rest arrives.
    private sealed class Connection(Socket socket, CancellationToken cancel)
    {
        private readonly Http2FrameReader _reader = new();
        private readonly byte[] _buffer = new byte[1 << 20];
        private int _start;
        private int _end;

        public async Task<(Http2FrameType Type, byte Flags, int Stream, byte[] Payload)> ReadFrame()
        {
            while (true)
            {
                var status = _reader.Read(_buffer.AsSpan(_start, _end - _start), out var frame, out var consumed);
                var result = status == Http2ReadStatus.Frame ? (frame.Type, frame.Flags, frame.StreamId, frame.Payload.ToArray()) : default;
                _start += consumed;
                if (status == Http2ReadStatus.Frame)
                    return result;
                Assert.That(status, Is.EqualTo(Http2ReadStatus.NeedMoreData), _reader.ErrorReason);
                Array.Copy(_buffer, _start, _buffer, 0, _end - _start);
                _end -= _start;
                _start = 0;
                var received = await socket.ReceiveAsync(_buffer.AsMemory(_end), SocketFlags.None, cancel);
                Assert.That(received, Is.GreaterThan(0), "nghttp closed the connection early");
                _end += received;
            }
        }

        public async Task Send(Func<byte[], int> write)
        {
            var frame = new byte[70_000];
            var length = write(frame);
            await socket.SendAsync(frame.AsMemory(0, length), SocketFlags.None, cancel);
        }
    }
}
