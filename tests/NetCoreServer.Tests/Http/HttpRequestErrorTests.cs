using System.Collections.Generic;
using System.Linq;
using System.Text;
using NUnit.Framework;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// Requests the reader refuses, each with the status a server answers: malformed lines and fields (400), every
/// smuggling shape (400), a body over the limit (413), a long request line (414), a large head (431), a transfer coding
/// not implemented (501), another HTTP version (505). The status is the same however the stream is split.
/// </summary>
[TestFixture]
public sealed class HttpRequestErrorTests
{
    private const string Post = "POST / HTTP/1.1\r\nHost: a\r\n";
    private const string Chunked = Post + "Transfer-Encoding: chunked\r\n\r\n";

    private static IEnumerable<TestCaseData> BadRequests()
    {
        // Line endings and characters.
        yield return Case(400, "bare LF line endings (refused, not tolerated)", "GET / HTTP/1.1\nHost: a\n\n");
        yield return Case(400, "a bare LF ending one header line", "GET / HTTP/1.1\r\nHost: a\n\r\n");
        yield return Case(400, "a bare CR inside a value", "GET / HTTP/1.1\r\nX: a\rb\r\n\r\n");
        yield return Case(400, "a NUL inside a value", "GET / HTTP/1.1\r\nX: a\0b\r\n\r\n");
        yield return Case(400, "obs-fold", "GET / HTTP/1.1\r\nX-A: a\r\n  folded\r\n\r\n");
        yield return Case(400, "whitespace before the first header", "GET / HTTP/1.1\r\n Host: a\r\n\r\n");
        yield return Case(400, "whitespace before the colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n");
        yield return Case(400, "a header without a colon", "GET / HTTP/1.1\r\nHost\r\n\r\n");
        yield return Case(400, "a header without a name", "GET / HTTP/1.1\r\n: a\r\n\r\n");
        yield return Case(400, "more than four empty lines before the request line", "\r\n\r\n\r\n\r\n\r\nGET / HTTP/1.1\r\n\r\n");

        // Request line.
        yield return Case(400, "a method that is not a token", "G(T / HTTP/1.1\r\n\r\n");
        yield return Case(400, "two spaces after the method", "GET  / HTTP/1.1\r\n\r\n");
        yield return Case(400, "a space inside the target", "GET /a b HTTP/1.1\r\n\r\n");
        yield return Case(400, "a control character in the target", "GET /a\tb HTTP/1.1\r\n\r\n");
        yield return Case(400, "a lower-case version", "GET / http/1.1\r\n\r\n");
        yield return Case(400, "no version", "GET /\r\n\r\n");
        yield return Case(400, "a space after the version", "GET / HTTP/1.1 \r\n\r\n");

        // Framing: every shape two parsers could frame differently.
        yield return Case(400, "Content-Length with Transfer-Encoding", Post + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        yield return Case(400, "Transfer-Encoding with Content-Length", Post + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n");
        yield return Case(400, "chunked, chunked", Post + "Transfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n");
        yield return Case(400, "chunked in two fields", Post + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        yield return Case(400, "chunked not last", Post + "Transfer-Encoding: chunked, gzip\r\n\r\n");
        yield return Case(400, "gzip alone", Post + "Transfer-Encoding: gzip\r\n\r\n");
        yield return Case(400, "an empty Transfer-Encoding", Post + "Transfer-Encoding: \r\n\r\n");
        yield return Case(400, "chunked with a parameter", Post + "Transfer-Encoding: chunked;q=1\r\n\r\n0\r\n\r\n");
        yield return Case(400, "Transfer-Encoding continued by obs-fold", Post + "Transfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n");
        yield return Case(400, "a Transfer-Encoding name with a space before the colon", Post + "Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n");
        yield return Case(400, "Transfer-Encoding in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        yield return Case(400, "Content-Length: 5, 6", Post + "Content-Length: 5, 6\r\n\r\nhello");
        yield return Case(400, "two Content-Length fields that disagree", Post + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello");
        yield return Case(400, "a negative Content-Length", Post + "Content-Length: -1\r\n\r\n");
        yield return Case(400, "a signed Content-Length", Post + "Content-Length: +5\r\n\r\nhello");
        yield return Case(400, "a hex Content-Length", Post + "Content-Length: 0x5\r\n\r\nhello");
        yield return Case(400, "an empty Content-Length", Post + "Content-Length: \r\n\r\n");
        yield return Case(400, "a Content-Length list with an empty element", Post + "Content-Length: 5,\r\n\r\nhello");

        // Chunked bodies.
        yield return Case(400, "a negative chunk size", Chunked + "-5\r\nhello\r\n0\r\n\r\n");
        yield return Case(400, "a chunk size past 2^60", Chunked + "fffffffffffffffffff\r\nx\r\n0\r\n\r\n");
        yield return Case(400, "a chunk size that is not hex", Chunked + "zz\r\nhello\r\n0\r\n\r\n");
        yield return Case(400, "whitespace before a chunk size", Chunked + " 5\r\nhello\r\n0\r\n\r\n");
        yield return Case(400, "junk after a chunk size", Chunked + "5x\r\nhello\r\n0\r\n\r\n");
        yield return Case(400, "whitespace after a chunk size without an extension", Chunked + "5 \r\nhello\r\n0\r\n\r\n");
        yield return Case(400, "chunk data longer than its size", Chunked + "5\r\nhelloX\r\n0\r\n\r\n");
        yield return Case(400, "a chunk-size line ending in a bare LF", Chunked + "5\nhello\r\n0\r\n\r\n");
        yield return Case(400, "a control character in a chunk extension", Chunked + "5;a\0b\r\nhello\r\n0\r\n\r\n");
        yield return Case(400, "a folded trailer", Chunked + "0\r\nX: a\r\n b\r\n\r\n");
        yield return Case(400, "a trailer without a colon", Chunked + "0\r\nnot a field\r\n\r\n");
        yield return Case(400, "a chunk-size line over 4 KiB", Chunked + "5;" + new string('e', 4200) + "\r\nhello\r\n0\r\n\r\n");

        // Limits.
        yield return Case(413, "Content-Length over 16 MiB", Post + "Content-Length: 16777217\r\n\r\n");
        yield return Case(413, "a Content-Length past long.MaxValue", Post + "Content-Length: 99999999999999999999999\r\n\r\n");
        yield return Case(413, "a chunk taking the body over 16 MiB", Chunked + "1000001\r\nx");
        yield return Case(414, "a request line over 8 KiB", "GET /" + new string('a', 8200) + " HTTP/1.1\r\n\r\n");
        yield return Case(431, "101 header fields", "GET / HTTP/1.1\r\n" + string.Concat(Enumerable.Range(0, 101).Select(i => $"X-{i}: v\r\n")) + "\r\n");
        yield return Case(431, "a head over 32 KiB", "GET / HTTP/1.1\r\n" + string.Concat(Enumerable.Range(0, 33).Select(i => $"X-{i}: {new string('v', 1000)}\r\n")) + "\r\n");
        yield return Case(431, "a trailer section over 32 KiB", Chunked + "0\r\n" + string.Concat(Enumerable.Range(0, 33).Select(i => $"X-{i}: {new string('v', 1000)}\r\n")) + "\r\n");
        yield return Case(431, "101 trailer fields", Chunked + "0\r\n" + string.Concat(Enumerable.Range(0, 101).Select(i => $"X-{i}: v\r\n")) + "\r\n");

        // Not implemented or not supported.
        yield return Case(501, "gzip, chunked", Post + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n");
        yield return Case(501, "identity, chunked", Post + "Transfer-Encoding: identity, chunked\r\n\r\n0\r\n\r\n");
        yield return Case(505, "HTTP/2.0", "GET / HTTP/2.0\r\n\r\n");
        yield return Case(505, "HTTP/1.2", "GET / HTTP/1.2\r\n\r\n");
        yield return Case(505, "HTTP/0.9", "GET / HTTP/0.9\r\n\r\n");
    }

    private static TestCaseData Case(int status, string name, string wire)
        => new TestCaseData(wire, status).SetName($"Refuses{status}: {name}");

    [TestCaseSource(nameof(BadRequests))]
    public void RefusesWithTheSameStatusHoweverTheStreamIsSplit(string wire, int status)
    {
        var bytes = Encoding.ASCII.GetBytes(wire);
        // Every cut position for small inputs; a sample of them for the large ones.
        var splits = HttpFeed.Splits(bytes.Length).Where((_, i) => bytes.Length <= 2048 || i % 97 == 0 || i == bytes.Length);
        foreach (var (name, cuts) in splits)
        {
            var request = new HttpRequest();
            var reader = new HttpRequestReader(request);
            var events = HttpFeed.Run(reader, bytes, cuts, () => "message", endOfStream: false);
            Assert.That(events.LastOrDefault(), Is.EqualTo("E:" + status), $"{name}: {string.Join(", ", events)}");
            Assert.That(reader.ErrorReason, Is.Not.Empty);
            Assert.That(request.IsErrorSet, Is.True);
        }
    }

    [Test]
    public void ARequestLineOverItsLimitIsRefusedBeforeItEnds()
    {
        var reader = new HttpRequestReader(new HttpRequest());
        var line = Encoding.ASCII.GetBytes("GET /" + new string('a', 8 * 1024));

        Assert.That(reader.Read(line, out _), Is.EqualTo(HttpReadResult.Error));
        Assert.That(reader.ErrorStatus, Is.EqualTo(414));
    }

    [Test]
    public void AHeadOverItsLimitIsRefusedBeforeItEnds()
    {
        var reader = new HttpRequestReader(new HttpRequest());
        var head = Encoding.ASCII.GetBytes("GET / HTTP/1.1\r\nX-Long: " + new string('v', 32 * 1024));

        Assert.That(reader.Read(head, out _), Is.EqualTo(HttpReadResult.Error));
        Assert.That(reader.ErrorStatus, Is.EqualTo(431));
    }

    [Test]
    public void ABodyOverTheLimitIsRefusedAtTheHeadBeforeAnyBodyArrives()
    {
        var reader = new HttpRequestReader(new HttpRequest(), new HttpLimits { MaxBodySize = 10 });

        Assert.That(reader.Read("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n"u8, out _), Is.EqualTo(HttpReadResult.Error));
        Assert.That(reader.ErrorStatus, Is.EqualTo(413));
    }

    [Test]
    public void AChunkedBodyIsRefusedOnceItsTotalPassesTheLimit()
    {
        var reader = new HttpRequestReader(new HttpRequest(), new HttpLimits { MaxBodySize = 10 });
        var wire = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n"u8;
        reader.Read(wire, out var head);
        Assert.That(reader.Read(wire[head..], out _), Is.EqualTo(HttpReadResult.NeedMoreData), "6 bytes are within the limit");

        Assert.That(reader.Read("5\r\nabcde\r\n"u8, out _), Is.EqualTo(HttpReadResult.Error), "6 + 5 are not");
        Assert.That(reader.ErrorStatus, Is.EqualTo(413));
    }

    [Test]
    public void AReaderStaysInErrorEvenAfterReset()
    {
        var reader = new HttpRequestReader(new HttpRequest());
        reader.Read("GET / HTTP/9.9\r\n\r\n"u8, out _);

        reader.Reset();

        Assert.That(reader.Read("GET / HTTP/1.1\r\n\r\n"u8, out var consumed), Is.EqualTo(HttpReadResult.Error));
        Assert.That(consumed, Is.Zero);
        Assert.That(reader.ErrorStatus, Is.EqualTo(505));
        Assert.That(reader.Complete(), Is.EqualTo(HttpReadResult.Error));
    }

    [Test]
    public void LimitsCanBeLowered()
    {
        var limits = new HttpLimits { MaxRequestLineSize = 16, MaxHeaderCount = 1 };
        var reader = new HttpRequestReader(new HttpRequest(), limits);
        Assert.That(reader.Read("GET /0123456789abcdef HTTP/1.1\r\n\r\n"u8, out _), Is.EqualTo(HttpReadResult.Error));
        Assert.That(reader.ErrorStatus, Is.EqualTo(414));

        reader = new HttpRequestReader(new HttpRequest(), limits);
        Assert.That(reader.Read("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\n\r\n"u8, out _), Is.EqualTo(HttpReadResult.Error));
        Assert.That(reader.ErrorStatus, Is.EqualTo(431));
        Assert.That(() => limits.MaxHeadSize = 0, Throws.TypeOf<System.ArgumentOutOfRangeException>());
    }
}
