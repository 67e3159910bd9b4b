using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// Pipelined requests on one connection, each answered with its own response in order, whoever answers it and
/// whenever: a static file streamed from the disk, a 304, a refused path, a range, an error, a 100-continue, an answer
/// from another thread later, one that never comes, a streamed body, a request body still arriving. A raw client
/// writes every request at once and reads the answers one by one; over http and https, on the pool and on event loops.
/// </summary>
[TestFixture]
[Parallelizable(ParallelScope.All)]
public sealed class HttpPipeliningTests
{
    private const int BigSize = 1024 * 1024;

    private static IEnumerable<HttpTestTransport> Transports()
        => new[] { HttpTestTransport.Http, HttpTestTransport.HttpPool, HttpTestTransport.Https, HttpTestTransport.HttpsPool };

    private static readonly byte[] s_index = Encoding.ASCII.GetBytes("<html>index</html>");

    /// <summary>A served tree with big.bin (streamed from the disk: larger than the cache's budget) and index.html.</summary>
    private sealed class Site : IDisposable
    {
        private readonly TempTree _tree = new();
        private readonly IDisposable _server;

        public Site(HttpTestTransport transport, Action<HttpOptions>? options = null)
        {
            Big = new byte[BigSize];
            for (var i = 0; i < Big.Length; i++)
                Big[i] = (byte)(i * 13 + (i >> 9));
            _tree.WriteBytes("big.bin", Big);
            _tree.WriteBytes("index.html", s_index);
            _server = transport.Start(Api, out var port, options, _tree.Www, cache => cache.MaxTotalSize = 64 * 1024);
            Port = port;
            Transport = transport;
        }

        public CacheApi Api { get; } = new();

        public byte[] Big { get; }

        public int Port { get; }

        public HttpTestTransport Transport { get; }

        /// <summary>A raw connection with <paramref name="requests"/> written at once, and a reader of its answers.</summary>
        public async Task<(Stream Stream, AnswerReader Reader)> Pipeline(string requests)
        {
            var stream = await AnswerReader.Open(Transport, Port);
            await stream.WriteAsync(Encoding.ASCII.GetBytes(requests));
            return (stream, new AnswerReader(stream));
        }

        public void Dispose()
        {
            _server.Dispose();
            _tree.Dispose();
        }
    }

    private static string Get(string target, string headers = "") => $"GET {target} HTTP/1.1\r\nHost: x\r\n{headers}\r\n";

    private static async Task<Answer> Next(AnswerReader reader, string what)
        => await reader.Next() ?? throw new AssertionException($"the connection closed before {what}");

    [TestCaseSource(nameof(Transports))]
    public async Task AStaticFileStreamedFromTheDiskIsFollowedByTheNextAnswerNotInterleavedWithIt(HttpTestTransport transport)
    {
        using var site = new Site(transport);
        var (stream, reader) = await site.Pipeline(Get("/static/big.bin") + Get("/static/index.html") + Get("/fixed"));
        await using var _ = stream;

        var big = await Next(reader, "big.bin");
        Assert.That(big.Status, Is.EqualTo(200));
        Assert.That(big.Body.AsSpan().SequenceEqual(site.Big), Is.True, "big.bin's body is the file, with nothing inside it");
        Assert.That((await Next(reader, "index.html")).Body, Is.EqualTo(s_index), "the second answer is index.html");
        Assert.That((await Next(reader, "/fixed")).Text, Is.EqualTo("Hello, World!"), "the third answer is /fixed's");
    }

    [TestCaseSource(nameof(Transports))]
    public async Task A304BehindAStreamedFileFollowsIt(HttpTestTransport transport)
    {
        using var site = new Site(transport);
        var (first, firstReader) = await site.Pipeline(Get("/static/index.html"));
        string etag;
        await using (first)
            etag = (await Next(firstReader, "index.html")).Head.Split("\r\n").Single(l => l.StartsWith("ETag:", StringComparison.OrdinalIgnoreCase))[5..].Trim();
        var (stream, reader) = await site.Pipeline(Get("/static/big.bin") + Get("/static/index.html", $"If-None-Match: {etag}\r\n") + Get("/fixed"));
        await using var _ = stream;

        Assert.That((await Next(reader, "big.bin")).Body.AsSpan().SequenceEqual(site.Big), Is.True, "big.bin whole");
        Assert.That((await Next(reader, "the 304")).Status, Is.EqualTo(304), "index.html is current: 304");
        Assert.That((await Next(reader, "/fixed")).Text, Is.EqualTo("Hello, World!"));
    }

    [TestCaseSource(nameof(Transports))]
    public async Task ARefusedPathBehindAStreamedFileGets400AfterIt(HttpTestTransport transport)
    {
        using var site = new Site(transport);
        var (stream, reader) = await site.Pipeline(Get("/static/big.bin") + Get("/static/%2e/index.html") + Get("/fixed"));
        await using var _ = stream;

        Assert.That((await Next(reader, "big.bin")).Body.AsSpan().SequenceEqual(site.Big), Is.True, "big.bin whole");
        Assert.That((await Next(reader, "the 400")).Status, Is.EqualTo(400), "the refused path gets 400");
        Assert.That((await Next(reader, "/fixed")).Text, Is.EqualTo("Hello, World!"));
    }

    [TestCaseSource(nameof(Transports))]
    public async Task TwoStreamedRangesArriveOneAfterTheOther(HttpTestTransport transport)
    {
        using var site = new Site(transport);
        var (stream, reader) = await site.Pipeline(Get("/static/big.bin", "Range: bytes=0-299999\r\n") + Get("/static/big.bin", "Range: bytes=300000-699999\r\n"));
        await using var _ = stream;

        var first = await Next(reader, "the first range");
        var second = await Next(reader, "the second range");
        Assert.That(first.Status, Is.EqualTo(206));
        Assert.That(first.Body.AsSpan().SequenceEqual(site.Big.AsSpan(0, 300000)), Is.True, "the first range alone");
        Assert.That(second.Status, Is.EqualTo(206));
        Assert.That(second.Body.AsSpan().SequenceEqual(site.Big.AsSpan(300000, 400000)), Is.True, "the second range alone");
    }

    [TestCaseSource(nameof(Transports))]
    public async Task AMalformedRequestBehindAStreamedFileGets400AfterItAndTheConnectionCloses(HttpTestTransport transport)
    {
        using var site = new Site(transport);
        var (stream, reader) = await site.Pipeline(Get("/static/big.bin") + "NOT HTTP AT ALL\r\n\r\n");
        await using var _ = stream;

        Assert.That((await Next(reader, "big.bin")).Body.AsSpan().SequenceEqual(site.Big), Is.True, "big.bin whole");
        var refused = await Next(reader, "the 400");
        Assert.That(refused.Status, Is.EqualTo(400));
        Assert.That(refused.Head, Does.Contain("Connection: close"));
        Assert.That(await reader.Closed(), Is.True, "the connection closes after the 400");
    }

    [TestCaseSource(nameof(Transports))]
    public async Task AContinueBehindAStreamedFileComesAfterIt(HttpTestTransport transport)
    {
        using var site = new Site(transport);
        var upload = "POST /api/cache?key=k HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nhello";
        var (stream, reader) = await site.Pipeline(Get("/static/big.bin") + upload + Get("/api/cache?key=k"));
        await using var _ = stream;

        Assert.That((await Next(reader, "big.bin")).Body.AsSpan().SequenceEqual(site.Big), Is.True, "big.bin whole");
        Assert.That((await Next(reader, "the 100")).Status, Is.EqualTo(100), "the 100 comes after big.bin's body");
        Assert.That((await Next(reader, "the POST's answer")).Status, Is.EqualTo(200));
        Assert.That((await Next(reader, "the GET's answer")).Text, Is.EqualTo("hello"));
    }

    [TestCaseSource(nameof(Transports))]
    public async Task ALateAnswerFromAnotherThreadKeepsItsPlaceBeforeTheNextRequest(HttpTestTransport transport)
    {
        using var site = new Site(transport);
        var (stream, reader) = await site.Pipeline(Get("/late/A") + Get("/fixed") + Get("/late/B") + Get("/static/index.html"));
        await using var _ = stream;

        Assert.That((await Next(reader, "/late/A")).Text, Is.EqualTo("A"), "the first answer is /late/A's");
        Assert.That((await Next(reader, "/fixed")).Text, Is.EqualTo("Hello, World!"));
        Assert.That((await Next(reader, "/late/B")).Text, Is.EqualTo("B"));
        Assert.That((await Next(reader, "index.html")).Body, Is.EqualTo(s_index));
        Assert.That(site.Api.LateResults, Is.EqualTo(new[] { true, true }), "both late answers were taken");
    }

    [TestCaseSource(nameof(Transports))]
    public async Task AnAnswerThroughTheRequestsHandleFromAnotherThreadAnswersThatRequestOnce(HttpTestTransport transport)
    {
        using var site = new Site(transport);
        var (stream, reader) = await site.Pipeline(Get("/handle/A") + Get("/fixed") + Get("/handle/B") + Get("/late/C"));
        await using var _ = stream;

        Assert.That((await Next(reader, "/handle/A")).Text, Is.EqualTo("A"));
        Assert.That((await Next(reader, "/fixed")).Text, Is.EqualTo("Hello, World!"));
        Assert.That((await Next(reader, "/handle/B")).Text, Is.EqualTo("B"));
        Assert.That((await Next(reader, "/late/C")).Text, Is.EqualTo("C"), "no second answer of a handle in C's place");
        Assert.That(site.Api.HandleResults, Is.EqualTo(new[] { (true, false, true), (true, false, true) }), "each handle answered once, then refused");
    }

    [TestCaseSource(nameof(Transports))]
    public async Task ARequestNobodyAnswersGets503AndCloseNeverTheNextAnswer(HttpTestTransport transport)
    {
        using var site = new Site(transport, o => o.ResponseTimeout = TimeSpan.FromMilliseconds(300));
        var (stream, reader) = await site.Pipeline(Get("/never") + Get("/static/index.html") + Get("/fixed"));
        await using var _ = stream;

        var answer = await Next(reader, "the 503");
        Assert.That(answer.Status, Is.EqualTo(503), "the unanswered request gets a 503, not index.html");
        Assert.That(answer.Head, Does.Contain("Connection: close"));
        Assert.That(await reader.Closed(), Is.True, "the connection closes after the 503");
        Assert.That(site.Api.Urls, Is.EqualTo(new[] { "GET /never" }), "the requests behind it were never handed over");
    }

    [TestCaseSource(nameof(Transports))]
    public async Task AnAnswerTooLateAfterThe503IsRefused(HttpTestTransport transport)
    {
        using var site = new Site(transport, o => o.ResponseTimeout = TimeSpan.FromMilliseconds(300));
        var (stream, reader) = await site.Pipeline(Get("/slow/A") + Get("/fixed"));
        await using var _ = stream;

        Assert.That((await Next(reader, "the 503")).Status, Is.EqualTo(503));
        Assert.That(await reader.Closed(), Is.True, "closed after the 503, the late answer not sent");
        Assert.That(await Wait.For(site.Api.FirstLateResult.Task, "the late answer being tried"), Is.False, "the late send says it was not taken");
    }

    [TestCaseSource(nameof(Transports))]
    public async Task AStreamedResponseFromTheSessionIsFollowedByTheNextAnswer(HttpTestTransport transport)
    {
        using var site = new Site(transport);
        var (stream, reader) = await site.Pipeline(Get("/stream/fixed-300000") + Get("/fixed") + Get("/stream/fixed-1000") + Get("/late/C"));
        await using var _ = stream;

        var first = await Next(reader, "the first streamed body");
        Assert.That(first.Body.Length, Is.EqualTo(300000));
        Assert.That(first.Body.Select((b, i) => b == ProducerStream.At(i)).All(x => x), Is.True, "the streamed body, nothing inside it");
        Assert.That((await Next(reader, "/fixed")).Text, Is.EqualTo("Hello, World!"));
        Assert.That((await Next(reader, "the second streamed body")).Body.Length, Is.EqualTo(1000));
        Assert.That((await Next(reader, "/late/C")).Text, Is.EqualTo("C"));
    }

    [TestCaseSource(nameof(Transports))]
    public async Task ARequestBodyStillArrivingBehindALateAnswerIsReadAfterIt(HttpTestTransport transport)
    {
        using var site = new Site(transport);
        var (stream, reader) = await site.Pipeline(Get("/late/A") + "PUT /api/cache?key=k HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nfirst");
        await using var _ = stream;

        Assert.That((await Next(reader, "/late/A")).Text, Is.EqualTo("A"));
        await stream.WriteAsync("-half"u8.ToArray());
        await stream.WriteAsync(Encoding.ASCII.GetBytes(Get("/api/cache?key=k")));
        Assert.That((await Next(reader, "the PUT's answer")).Status, Is.EqualTo(200));
        Assert.That((await Next(reader, "the GET's answer")).Text, Is.EqualTo("first-half"), "the body arrived whole");
    }
}
