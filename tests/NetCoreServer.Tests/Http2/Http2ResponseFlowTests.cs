using System;
using System.Linq;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Http2;
using NetCoreServer.Tests.Http;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// The answers that do not fit a window over h2c: static files (cached, and too large to cache so read from the disk),
/// byte ranges of them, and bodies streamed from a producer, each larger than the 65,535-byte initial window and read
/// by a client that gives the window back only as it reads; and a stream whose client never opens its window, which
/// must not hold back the other streams of its connection. The server is the HTTP/1.1 tests' (<see cref="CacheApi"/>
/// with static content under /static and /stream/ bodies): nothing in it is HTTP/2-specific.
/// </summary>
[TestFixture]
public sealed class Http2ResponseFlowTests
{
    // Larger than the initial window, under the cache's limit: served from the cache.
    private const int PageLength = 200_000;

    // Larger than the cache's limit: read from the disk as it goes out.
    private const int BigLength = 1024 * 1024;

    private TempTree _tree = null!;
    private IDisposable _server = null!;
    private int _port;
    private byte[] _page = null!;
    private byte[] _big = null!;

    [SetUp]
    public void StartServer()
    {
        _tree = new TempTree();
        _page = Pattern(PageLength, 1);
        _big = Pattern(BigLength, 2);
        _tree.WriteBytes("page.html", _page);
        _tree.WriteBytes("big.css", _big);
        _server = HttpTestTransport.Http.Start(new CacheApi(), out _port, staticContent: _tree.Www, cache: cache => cache.MaxTotalSize = 512 * 1024);
    }

    [TearDown]
    public void StopServer()
    {
        _server.Dispose();
        _tree.Dispose();
    }

    private static byte[] Pattern(int length, int seed)
    {
        var bytes = new byte[length];
        for (var i = 0; i < length; i++)
            bytes[i] = (byte)(i * 11 + seed * 17 + (i >> 9));
        return bytes;
    }

    private Task<Http2RawClient> Connect() => Http2RawClient.ConnectAsync(new System.Net.IPEndPoint(System.Net.IPAddress.Loopback, _port));

    [TestCase("/static/page.html", "text/html", PageLength, TestName = "CachedStaticFileLargerThanTheWindowArrivesWholeWithItsTypeAndLength")]
    [TestCase("/static/big.css", "text/css", BigLength, TestName = "StaticFileTooLargeToCacheArrivesWholeWithItsTypeAndLength")]
    public async Task StaticFileArrivesWhole(string path, string type, int length)
    {
        using var client = await Connect();
        await client.Get(1, path);
        var response = await client.Response(1, creditBatch: 16 * 1024);

        Assert.That(response.Status, Is.EqualTo(200));
        Assert.That(response.Field("content-type"), Does.StartWith(type));
        Assert.That(response.Field("content-length"), Is.EqualTo(length.ToString(System.Globalization.CultureInfo.InvariantCulture)));
        Assert.That(response.Body, Is.EqualTo(length == PageLength ? _page : _big), "the whole file, byte for byte");
    }

    [TestCase("page.html", PageLength)]
    [TestCase("big.css", BigLength)]
    public async Task RangeOfAStaticFileGets206WithItsContentRangeAndPastTheEnd416(string name, int length)
    {
        var content = name == "page.html" ? _page : _big;
        using var client = await Connect();

        await client.Get(1, "/static/" + name, extra: ("range", "bytes=70000-150000"));
        var part = await client.Response(1, creditBatch: 16 * 1024);
        Assert.That(part.Status, Is.EqualTo(206));
        Assert.That(part.Field("content-range"), Is.EqualTo($"bytes 70000-150000/{length}"));
        Assert.That(part.Field("content-length"), Is.EqualTo("80001"));
        Assert.That(part.Body, Is.EqualTo(content[70000..150001]), "exactly the bytes asked for");

        await client.Get(3, "/static/" + name, extra: ("range", "bytes=-10"));
        var tail = await client.Response(3);
        Assert.That((tail.Status, tail.Body), Is.EqualTo((206, content[^10..])), "the last ten bytes");

        await client.Get(5, "/static/" + name, extra: ("range", $"bytes={length}-"));
        var past = await client.Response(5);
        Assert.That(past.Status, Is.EqualTo(416));
        Assert.That(past.Field("content-range"), Is.EqualTo($"bytes */{length}"));
        Assert.That(past.Body, Is.Empty);
    }

    [TestCase("fixed")]
    [TestCase("produced")]
    public async Task StreamedResponseLargerThanTheWindowArrivesWholeAsTheClientOpensIt(string kind)
    {
        using var client = await Connect();
        await client.Get(1, $"/stream/{kind}-1000000");
        var response = await client.Response(1, creditBatch: 20_000);

        Assert.That(response.Status, Is.EqualTo(200));
        Assert.That(response.Field("content-length"), Is.EqualTo(kind == "fixed" ? "1000000" : null), "a known length is declared, a producer's is not");
        Assert.That(response.Body.Length, Is.EqualTo(1_000_000));
        Assert.That(response.Body.Select((b, i) => b == ProducerStream.At(i)).All(x => x), Is.True, "every byte in order");
    }

    // Each stalled body is larger than what a streamed answer may queue on its stream (1 MiB) before its producer waits.
    [TestCase("/static/huge.bin", TestName = "StaticFileWhoseWindowNeverOpensDoesNotStopAnotherStream")]
    [TestCase("/static/page.html", TestName = "CachedFileWhoseWindowNeverOpensDoesNotStopAnotherStream")]
    [TestCase("/stream/produced-4000000", TestName = "StreamedResponseWhoseWindowNeverOpensDoesNotStopAnotherStream")]
    [TestCase("/stream/fixed-4000000", TestName = "StreamedResponseOfKnownLengthWhoseWindowNeverOpensDoesNotStopAnotherStream")]
    public async Task StalledStreamDoesNotStopAnother(string stalled)
    {
        _tree.WriteBytes("huge.bin", Pattern(4 * BigLength, 3));
        using var client = await Connect();
        await client.Get(1, stalled);
        var skipped = new System.Collections.Generic.List<Http2ReceivedFrame>();

        await client.Get(3, "/static/big.css");
        var big = await client.Response(3, skipped: skipped, withheld: 1);
        await client.Get(5, "/fixed");
        var small = await client.Response(5, skipped: skipped, withheld: 1);

        Assert.That((big.Status, big.Body.Length), Is.EqualTo((200, BigLength)), "the other stream's file, whole");
        Assert.That(big.Body, Is.EqualTo(_big));
        Assert.That((small.Status, small.Text), Is.EqualTo((200, "Hello, World!")), "a request to the hooks after the stalled one");
        var stalledData = skipped.Where(f => f.StreamId == 1 && f.Type == Http2FrameType.Data).ToList();
        Assert.That(stalledData.Sum(f => f.Payload.Length), Is.EqualTo(Http2Settings.DefaultInitialWindowSize), "the stalled stream got its window and no more");
        Assert.That(stalledData.Any(f => f.EndStream), Is.False, "the stalled stream is still waiting");
    }
}
