using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Security.Cryptography;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Http2;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// Request bodies streamed over HTTP/2 (StreamRequestBody from the header hook) reach OnReceivedRequestBody as DATA
/// arrives, with the stream's credit given back only as the pieces are taken: the hooks, their order and the limits of
/// HTTP/1.1's streamed bodies (<see cref="Http.HttpStreamedBodyTests"/>), with HTTP/2's flow control.
/// </summary>
[TestFixture]
public sealed class Http2StreamedBodyTests
{
    private Http2UploadServer _server = null!;

    [SetUp]
    public void StartServer()
    {
        _server = new Http2UploadServer();
        _server.Start();
    }

    [TearDown]
    public void StopServer() => _server.Dispose();

    private Task<Http2RawClient> Connect() => Http2RawClient.ConnectAsync(_server.Endpoint);

    private static (string, string)[] Put(string path) => [(":method", "PUT"), (":scheme", "http"), (":authority", "localhost"), (":path", path)];

    private static byte[] RandomBody(int size)
    {
        var body = new byte[size];
        new Random(size).NextBytes(body);
        return body;
    }

    private static string Hash(byte[] body) => Convert.ToHexString(SHA256.HashData(body));

    // "parts total sha256 bodyLength", as the upload route answers.
    private static void AssertUpload(Http2RawResponse response, byte[] body)
    {
        Assert.That(response.Status, Is.EqualTo(200), response.Text);
        var fields = response.Text.Split(' ');
        Assert.That(int.Parse(fields[0], System.Globalization.CultureInfo.InvariantCulture), Is.GreaterThan(1), "the body came in several pieces");
        Assert.That(fields[1], Is.EqualTo(body.Length.ToString(System.Globalization.CultureInfo.InvariantCulture)), "all of it");
        Assert.That(fields[2], Is.EqualTo(Hash(body)), "in order");
        Assert.That(fields[3], Is.EqualTo("0"), "OnReceivedRequest gets an empty body, as over HTTP/1.1");
    }

    [Test]
    public async Task UploadPastMaxBodySizeReachesTheBodyHookInOrderedPieces()
    {
        _server.Http.MaxBodySize = 64 * 1024;
        using var client = await Connect();
        var body = RandomBody(4 << 20);

        await client.SendHeaders(1, endStream: false, Put("/upload"));
        await new Http2Uploader(client, 1).Send(body, 0, body.Length, endStream: true);

        AssertUpload(await client.Response(1), body);
        var seen = _server.Seen.ToArray();
        Assert.That(seen[0], Is.EqualTo("header PUT /upload"));
        Assert.That(seen[^1], Is.EqualTo("request PUT /upload"));
        Assert.That(seen[1..^1], Is.All.EqualTo("body"), "header hook, the pieces, then the request hook");
    }

    [Test]
    public async Task SlowConsumerGetsNoCreditPastWhatItTookSoTheStreamHoldsAtMostItsWindow()
    {
        _server.HoldFirstPiece = new(TaskCreationOptions.RunContinuationsAsynchronously);
        using var client = await Connect();
        var body = RandomBody(3 << 20);
        var uploader = new Http2Uploader(client, 1);
        var checkedWhileHeld = false;

        await client.SendHeaders(1, endStream: false, Put("/upload"));
        await uploader.Send(body, 0, body.Length, endStream: true, blocked: async () =>
        {
            await Wait.For(_server.FirstPiece.Task, "the first piece in the body hook");
            // The hook holds its first piece: the client could send one window and no more.
            Assert.That(uploader.StreamCredit, Is.LessThanOrEqualTo(_server.Delivered), "credit only for the bytes the hook took");
            Assert.That(uploader.Sent - _server.Delivered, Is.LessThanOrEqualTo(Http2Limits.StreamWindow), "bytes held for the stream");
            checkedWhileHeld = true;
            _server.HoldFirstPiece.SetResult();
        });

        Assert.That(checkedWhileHeld, Is.True, "the client ran out of window while the consumer held its first piece");
        AssertUpload(await client.Response(1), body);
    }

    [Test]
    public async Task AnotherStreamIsAnsweredWhileADetachedUploadWaitsForItsClient()
    {
        using var client = await Connect();
        var body = RandomBody(2 << 20);
        var uploader = new Http2Uploader(client, 1);

        await client.SendHeaders(1, endStream: false, Put("/upload-detached"));
        await uploader.Send(body, 0, 500_000, endStream: false);
        await Wait.For(_server.FirstPiece.Task, "the first piece in the body hook");
        await client.Get(3, "/hello");
        var skipped = new List<Http2ReceivedFrame>();
        var hello = await client.Response(3, skipped: skipped);
        uploader.Take(skipped);

        Assert.That(hello.Text, Is.EqualTo("Hello, World!"), "served while the upload waits for the rest of its body");
        await uploader.Send(body, 500_000, body.Length, endStream: true);
        AssertUpload(await client.Response(1), body);
        Assert.That(_server.Overlapped, Is.False, "the hooks still ran one at a time");
    }

    [Test]
    public async Task AnUploadWhoseHandleIsNotTakenKeepsTheHooksUntilAnsweredAsOverHttp11()
    {
        using var client = await Connect();
        var body = RandomBody(1 << 20);
        var uploader = new Http2Uploader(client, 1);

        await client.SendHeaders(1, endStream: false, Put("/upload"));
        await uploader.Send(body, 0, 500_000, endStream: false);
        await Wait.For(_server.FirstPiece.Task, "the first piece in the body hook");
        await client.Get(3, "/hello");
        await client.Send(b => Http2FrameWriter.WritePing(b, "abcdefgh"u8, ack: false));
        var skipped = new List<Http2ReceivedFrame>();
        await client.ReadUntil(f => f.Type == Http2FrameType.Ping && f.Ack, skipped);
        uploader.Take(skipped);
        Assert.That(_server.Seen, Does.Not.Contain("header GET /hello"), "stream 3 waits: the upload's hooks are not over");

        await uploader.Send(body, 500_000, body.Length, endStream: true);
        AssertUpload(await client.Response(1), body);
        Assert.That((await client.Response(3)).Text, Is.EqualTo("Hello, World!"));
    }

    [Test]
    public async Task StreamedBodyPastItsOwnLimitGets413AndTheClientIsAskedToStop()
    {
        _server.StreamLimit = 100_000;
        using var client = await Connect();
        // The server's first WINDOW_UPDATE opens the connection to 1 MiB: 200,000 bytes fit without reading more.
        await client.ReadUntil(f => f.Type == Http2FrameType.WindowUpdate && f.StreamId == 0);
        await client.SendHeaders(1, endStream: false, Put("/upload"));
        for (var sent = 0; sent < 200_000; sent += 10_000)
            await client.SendData(1, new byte[10_000], endStream: false);

        Assert.That((await client.Response(1)).Status, Is.EqualTo(413));
        Assert.That(await client.ResetOf(1), Is.EqualTo(Http2ErrorCode.NoError), "RFC 9113 8.1: stop sending, without error");
        Assert.That(_server.Seen, Does.Contain("error the body is larger than allowed"), "OnReceivedRequestError, as over HTTP/1.1");
        await client.Get(3, "/hello");
        Assert.That((await client.Response(3)).Text, Is.EqualTo("Hello, World!"), "the connection goes on");
    }

    [Test]
    [NonParallelizable] // moves megabytes through the process, which the tests measuring its memory would count
    public async Task CurlUploadsEightMegabytesThroughTheBodyHook()
    {
        _server.Http.MaxBodySize = 1 << 20;
        var curl = ExternalTool.Require("curl");
        var body = RandomBody(8 << 20);
        var file = Path.Combine(Path.GetTempPath(), "h2-upload-" + Guid.NewGuid().ToString("N"));
        await File.WriteAllBytesAsync(file, body);
        try
        {
            var url = $"http://127.0.0.1:{((IPEndPoint)_server.Endpoint).Port}/upload";
            var result = await ExternalTool.Run(curl, ["-sS", "--http2-prior-knowledge", "-T", file, "-w", " %{http_version}", url], TimeSpan.FromSeconds(60));
            var text = result.Output.Trim();
            Assert.That(text, Does.EndWith(" 2"), "over HTTP/2: " + text + result.Error);
            var fields = text.Split(' ');
            Assert.That(fields[1], Is.EqualTo(body.Length.ToString(System.Globalization.CultureInfo.InvariantCulture)));
            Assert.That(fields[2], Is.EqualTo(Hash(body)));
        }
        finally
        {
            File.Delete(file);
        }
    }

    [Test]
    [NonParallelizable] // measures what the whole process allocates
    public async Task A256MiBUploadAllocatesAFractionOfItsSize()
    {
        const int size = 256 << 20;
        var curl = ExternalTool.Require("curl");
        var file = Path.Combine(Path.GetTempPath(), "h2-upload-" + Guid.NewGuid().ToString("N"));
        var chunk = RandomBody(1 << 20);
        await using (var stream = File.Create(file))
        {
            for (var i = 0; i < size / chunk.Length; i++)
                await stream.WriteAsync(chunk);
        }
        try
        {
            var url = $"http://127.0.0.1:{((IPEndPoint)_server.Endpoint).Port}/upload";
            GC.Collect();
            var before = GC.GetTotalAllocatedBytes(precise: true);
            var result = await ExternalTool.Run(curl, ["-sS", "--http2-prior-knowledge", "-T", file, url], TimeSpan.FromSeconds(120));
            var allocated = GC.GetTotalAllocatedBytes(precise: true) - before;
            TestContext.Out.WriteLine($"256 MiB uploaded over h2c, streamed: {allocated / 1024.0 / 1024.0:0.0} MiB allocated by the process, {result.Output.Split(' ')[0]} pieces");
            Assert.That(result.Output.Split(' ')[1], Is.EqualTo(size.ToString(System.Globalization.CultureInfo.InvariantCulture)), result.ToString());
            Assert.That(allocated, Is.LessThan(size / 8), "the body is not kept: pieces come from pooled buffers");
        }
        finally
        {
            File.Delete(file);
        }
    }
}
