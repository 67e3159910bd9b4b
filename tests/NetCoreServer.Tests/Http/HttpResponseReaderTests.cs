using System.Collections.Generic;
using System.Linq;
using System.Text;
using NUnit.Framework;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// Responses through <see cref="HttpResponseReader"/>, fed whole, cut at every position and one byte at a time: bodies
/// by Content-Length, chunked and until close; no body after HEAD, 1xx, 204 and 304.
/// </summary>
[TestFixture]
public sealed class HttpResponseReaderTests
{
    private static IEnumerable<TestCaseData> ValidResponses()
    {
        yield return Case("a 200 with Content-Length", "GET",
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello",
            "HTTP/1.1 200 OK | Content-Type=text/plain; Content-Length=5; | body=hello len=5 ka=1 chunked=0");
        yield return Case("a chunked response with trailers", "GET",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nWiki\r\n5;ext\r\npedia\r\n0\r\nX-Trailer: t\r\n\r\n",
            "HTTP/1.1 200 OK | Transfer-Encoding=chunked; | body=Wikipedia len=9 ka=1 chunked=1");
        yield return Case("a response to HEAD (Content-Length but no body), then one to GET", "HEAD",
            "HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi",
            "HTTP/1.1 200 OK | Content-Length=1234; | body= len=0 ka=1 chunked=0",
            "HTTP/1.1 200 OK | Content-Length=2; | body=hi len=2 ka=1 chunked=0");
        yield return Case("204 and 304 without bodies", "GET",
            "HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 50\r\nETag: \"x\"\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 204 No Content | | body= len=0 ka=1 chunked=0",
            "HTTP/1.1 304 Not Modified | Content-Length=50; ETag=\"x\"; | body= len=0 ka=1 chunked=0",
            "HTTP/1.1 200 OK | Content-Length=0; | body= len=0 ka=1 chunked=0");
        yield return Case("100 Continue before the final response", "POST",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok",
            "HTTP/1.1 100 Continue | | body= len=0 ka=1 chunked=0",
            "HTTP/1.1 201 Created | Content-Length=2; | body=ok len=2 ka=1 chunked=0");
        yield return Case("a body read until the connection closes", "GET",
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end",
            "HTTP/1.1 200 OK | Content-Type=text/plain; | body=until the end len=13 ka=0 chunked=0");
        yield return Case("an HTTP/1.0 response without a length", "GET",
            "HTTP/1.0 200 OK\r\n\r\nold",
            "HTTP/1.0 200 OK | | body=old len=3 ka=0 chunked=0");
        yield return Case("a coding other than chunked last (read until close)", "GET",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\nraw",
            "HTTP/1.1 200 OK | Transfer-Encoding=gzip; | body=raw len=3 ka=0 chunked=0");
        yield return Case("a status line without a reason phrase", "GET",
            "HTTP/1.1 200\r\nContent-Length: 0\r\n\r\nHTTP/1.1 404 \r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200  | Content-Length=0; | body= len=0 ka=1 chunked=0",
            "HTTP/1.1 404  | Content-Length=0; | body= len=0 ka=1 chunked=0");
        yield return Case("a 2xx to CONNECT (no body) and Connection: close", "CONNECT",
            "HTTP/1.1 200 Connection Established\r\nConnection: close\r\n\r\n",
            "HTTP/1.1 200 Connection Established | Connection=close; | body= len=0 ka=0 chunked=0");
    }

    private static TestCaseData Case(string name, string method, string wire, params string[] messages)
        => new TestCaseData(method, wire, messages.SelectMany(m => new[] { "H", "M:" + m }).ToArray()).SetName("ReadsValidResponse: " + name);

    [TestCaseSource(nameof(ValidResponses))]
    public void ReadsTheSameMessagesHoweverTheStreamIsSplit(string firstMethod, string wire, string[] expected)
    {
        var bytes = Encoding.UTF8.GetBytes(wire);
        foreach (var (name, cuts) in HttpFeed.Splits(bytes.Length))
        {
            var reader = new HttpResponseReader(new HttpResponse()) { RequestMethod = firstMethod };
            // After the first response the client's next request is a GET.
            var events = HttpFeed.Run(reader, bytes, cuts, () => HttpFeed.Describe(reader), afterMessage: () => reader.RequestMethod = "GET");
            Assert.That(events, Is.EqualTo(expected), name);
        }
    }

    [Test]
    public void ABodyUntilCloseIsReadyOnlyAtTheEndOfTheStream()
    {
        var reader = new HttpResponseReader(new HttpResponse());
        var wire = "HTTP/1.1 200 OK\r\n\r\npart"u8;

        Assert.That(reader.Read(wire, out var consumed), Is.EqualTo(HttpReadResult.HeaderReady));
        Assert.That(reader.IsReadingUntilClose, Is.True);
        Assert.That(reader.KeepAlive, Is.False);
        Assert.That(reader.Read(wire[consumed..], out var body), Is.EqualTo(HttpReadResult.NeedMoreData));
        Assert.That(body, Is.EqualTo(4));
        Assert.That(reader.Complete(), Is.EqualTo(HttpReadResult.MessageReady));
        Assert.That(reader.Response.Body, Is.EqualTo("part"));
    }

    [Test]
    public void ABodyUntilCloseIsBoundedByTheBodyLimit()
    {
        var reader = new HttpResponseReader(new HttpResponse(), new HttpLimits { MaxBodySize = 8 });
        reader.Read("HTTP/1.1 200 OK\r\n\r\n"u8, out _);

        Assert.That(reader.Read("12345678"u8, out _), Is.EqualTo(HttpReadResult.NeedMoreData));
        Assert.That(reader.Read("9"u8, out _), Is.EqualTo(HttpReadResult.Error));
        Assert.That(reader.ErrorStatus, Is.EqualTo(413));
    }

    [TestCase("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n", 400, TestName = "AResponseWithContentLengthAndTransferEncodingIsRefused")]
    [TestCase("HTTP/2.0 200 OK\r\n\r\n", 505, TestName = "AResponseInAnUnsupportedVersionIsRefused")]
    [TestCase("HTTP/1.1 20 OK\r\n\r\n", 400, TestName = "AStatusCodeOfTwoDigitsIsRefused")]
    [TestCase("HTTP/1.1 600 Odd\r\n\r\n", 400, TestName = "AStatusCodeOver599IsRefused")]
    [TestCase("HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\n", 400, TestName = "AResponseWithConflictingLengthsIsRefused")]
    [TestCase("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, chunked\r\n\r\n", 400, TestName = "AResponseChunkedTwiceIsRefused")]
    [TestCase("HTTP/1.1 200 OK\r\nContent-Length: 99999999999\r\n\r\n", 413, TestName = "AResponseLongerThanTheBodyLimitIsRefused")]
    public void AMalformedResponseIsAnError(string wire, int status)
    {
        var reader = new HttpResponseReader(new HttpResponse());

        Assert.That(reader.Read(Encoding.ASCII.GetBytes(wire), out _), Is.EqualTo(HttpReadResult.Error));
        Assert.That(reader.ErrorStatus, Is.EqualTo(status));
        Assert.That(reader.Response.IsErrorSet, Is.True);
    }

    [Test]
    public void AResponseCutShortInItsBodyIsAnErrorAtTheEndOfTheStream()
    {
        var reader = new HttpResponseReader(new HttpResponse());
        var wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel"u8;
        reader.Read(wire, out var consumed);
        reader.Read(wire[consumed..], out _);

        Assert.That(reader.Complete(), Is.EqualTo(HttpReadResult.Error));
        Assert.That(reader.ErrorStatus, Is.EqualTo(400));
    }
}
