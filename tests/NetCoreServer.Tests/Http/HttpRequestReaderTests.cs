using System.Collections.Generic;
using System.Linq;
using System.Text;
using NUnit.Framework;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// Valid requests through <see cref="HttpRequestReader"/>: each fed whole, cut once at every position, and one byte at
/// a time (the unconsumed bytes handed again as the engine does) gives the same messages.
/// </summary>
[TestFixture]
public sealed class HttpRequestReaderTests
{
    private const string Tail = " ka=1 chunked=0 expect=0";

    private static IEnumerable<TestCaseData> ValidRequests()
    {
        yield return Case("a GET with a few headers",
            "GET /index.html?q=1 HTTP/1.1\r\nHost: example.com\r\nUser-Agent: test/1.0\r\nAccept: */*\r\n\r\n",
            "GET /index.html?q=1 HTTP/1.1 | Host=example.com; User-Agent=test/1.0; Accept=*/*; | body= len=0" + Tail);
        yield return Case("a POST with Content-Length",
            "POST /submit HTTP/1.1\r\nHost: a\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nhello world",
            "POST /submit HTTP/1.1 | Host=a; Content-Type=text/plain; Content-Length=11; | body=hello world len=11" + Tail);
        yield return Case("a chunked POST with extensions and trailers",
            "POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value\r\nhello\r\n6 ; q=\"a;b\"\r\n world\r\n0\r\nExpires: never\r\nX-Checksum: 1\r\n\r\n",
            "POST /upload HTTP/1.1 | Host=a; Transfer-Encoding=chunked; | body=hello world len=11 ka=1 chunked=1 expect=0");
        yield return Case("several pipelined requests in one stream",
            "GET /a HTTP/1.1\r\nHost: a\r\n\r\n"
            + "POST /b HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc"
            + "DELETE /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n"
            + "GET /d HTTP/1.1\r\nConnection: close\r\n\r\n",
            "GET /a HTTP/1.1 | Host=a; | body= len=0" + Tail,
            "POST /b HTTP/1.1 | Host=a; Content-Length=3; | body=abc len=3" + Tail,
            "DELETE /c HTTP/1.1 | Host=a; Transfer-Encoding=Chunked; | body=0123456789 len=10 ka=1 chunked=1 expect=0",
            "GET /d HTTP/1.1 | Connection=close; | body= len=0 ka=0 chunked=0 expect=0");
        yield return Case("an HTTP/1.0 request (not persistent)",
            "GET / HTTP/1.0\r\n\r\n",
            "GET / HTTP/1.0 | | body= len=0 ka=0 chunked=0 expect=0");
        yield return Case("an HTTP/1.0 request asking for keep-alive",
            "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n",
            "GET / HTTP/1.0 | Connection=Keep-Alive; | body= len=0" + Tail);
        yield return Case("a request expecting 100-continue",
            "PUT /x HTTP/1.1\r\nHost: a\r\nExpect: 100-Continue\r\nContent-Length: 2\r\n\r\nok",
            "PUT /x HTTP/1.1 | Host=a; Expect=100-Continue; Content-Length=2; | body=ok len=2 ka=1 chunked=0 expect=1");
        yield return Case("an empty line before the request line (skipped)",
            "\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
            "GET / HTTP/1.1 | Host=a; | body= len=0" + Tail);
        yield return Case("whitespace around values and connection options in any case",
            "GET / HTTP/1.1\r\nHost:a\r\nX-Spaces: \t value with  inner spaces \t\r\nX-Empty:\r\nconnection: keep-alive, CLOSE\r\n\r\n",
            "GET / HTTP/1.1 | Host=a; X-Spaces=value with  inner spaces; X-Empty=; connection=keep-alive, CLOSE; | body= len=0 ka=0 chunked=0 expect=0");
        yield return Case("repeated Content-Length values that agree",
            "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3, 3\r\n\r\nabc",
            "POST / HTTP/1.1 | Content-Length=3; Content-Length=3, 3; | body=abc len=3" + Tail);
        yield return Case("a UTF-8 body and target",
            "POST /caf\u00e9 HTTP/1.1\r\nContent-Length: 6\r\n\r\nna\u00efve",
            "POST /caf\u00e9 HTTP/1.1 | Content-Length=6; | body=na\u00efve len=6" + Tail);
    }

    private static TestCaseData Case(string name, string wire, params string[] messages)
        => new TestCaseData(wire, messages.SelectMany(m => new[] { "H", "M:" + m }).ToArray()).SetName("ReadsValidRequest: " + name);

    [TestCaseSource(nameof(ValidRequests))]
    public void ReadsTheSameMessagesHoweverTheStreamIsSplit(string wire, string[] expected)
    {
        var bytes = Encoding.UTF8.GetBytes(wire);
        foreach (var (name, cuts) in HttpFeed.Splits(bytes.Length))
        {
            var reader = new HttpRequestReader(new HttpRequest());
            var events = HttpFeed.Run(reader, bytes, cuts, () => HttpFeed.Describe(reader));
            Assert.That(events, Is.EqualTo(expected), name);
        }
    }

    [Test]
    public void TheHeadIsAvailableAtHeaderReadyBeforeTheBodyArrives()
    {
        var reader = new HttpRequestReader(new HttpRequest());
        var head = "POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\n"u8;

        Assert.That(reader.Read(head, out var consumed), Is.EqualTo(HttpReadResult.HeaderReady));
        Assert.That(consumed, Is.EqualTo(head.Length));
        Assert.That(reader.Request.Method, Is.EqualTo("POST"));
        Assert.That(reader.Request.BodyLength, Is.EqualTo(11), "the declared length is known at HeaderReady");
        Assert.That(reader.ContentLength, Is.EqualTo(11));
        Assert.That(reader.Request.Body, Is.Empty);

        Assert.That(reader.Read("hello"u8, out consumed), Is.EqualTo(HttpReadResult.NeedMoreData));
        Assert.That(consumed, Is.EqualTo(5), "body bytes are consumed as they come");
        Assert.That(reader.Request.Body, Is.EqualTo("hello"));
        Assert.That(reader.Read(" world"u8, out consumed), Is.EqualTo(HttpReadResult.MessageReady));
        Assert.That(reader.Request.Body, Is.EqualTo("hello world"), "a body string read early is made again once the body grows");
    }

    [Test]
    public void AnIncompleteHeadIsNotConsumed()
    {
        var reader = new HttpRequestReader(new HttpRequest());

        Assert.That(reader.Read("GET / HTTP/1.1\r\nHost: a\r\n"u8, out var consumed), Is.EqualTo(HttpReadResult.NeedMoreData));
        Assert.That(consumed, Is.Zero);
    }

    [Test]
    public void ABodilessMessageIsReadyOnTheCallAfterHeaderReadyConsumingNothing()
    {
        var reader = new HttpRequestReader(new HttpRequest());
        var wire = "GET / HTTP/1.1\r\n\r\nGET /2 HTTP/1.1\r\n\r\n"u8;

        Assert.That(reader.Read(wire, out var consumed), Is.EqualTo(HttpReadResult.HeaderReady));
        Assert.That(reader.Read(wire[consumed..], out var none), Is.EqualTo(HttpReadResult.MessageReady));
        Assert.That(none, Is.Zero);
        Assert.That(reader.Read(wire[consumed..], out var second), Is.EqualTo(HttpReadResult.HeaderReady), "the call after MessageReady starts the next message");
        Assert.That(reader.Request.Url, Is.EqualTo("/2"));
        Assert.That(consumed + second, Is.EqualTo(wire.Length));
    }

    [Test]
    public void ExpectContinueNeedsHttp11AndABody()
    {
        Assert.Multiple(() =>
        {
            Assert.That(ExpectContinue("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 0\r\n\r\n"), Is.False, "no body");
            Assert.That(ExpectContinue("POST / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n"), Is.False, "HTTP/1.0 (RFC 9110 §10.1.1)");
            Assert.That(ExpectContinue("POST / HTTP/1.1\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n"), Is.True, "chunked body");
            Assert.That(ExpectContinue("POST / HTTP/1.1\r\nExpect: something-else\r\nContent-Length: 5\r\n\r\n"), Is.False, "another expectation");
        });
    }

    [Test]
    public void TheEndOfTheStreamCutsShortAnUnfinishedMessageOnly()
    {
        var reader = new HttpRequestReader(new HttpRequest());
        Assert.That(reader.Complete(), Is.EqualTo(HttpReadResult.NeedMoreData), "nothing under way");

        reader.Read("GET / HT"u8, out _);
        Assert.That(reader.Complete(), Is.EqualTo(HttpReadResult.Error), "in the head");
        Assert.That(reader.ErrorStatus, Is.EqualTo(400));

        reader = new HttpRequestReader(new HttpRequest());
        reader.Read("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n"u8, out _);
        reader.Read("abc"u8, out _);
        Assert.That(reader.Complete(), Is.EqualTo(HttpReadResult.Error), "in the body");

        reader = new HttpRequestReader(new HttpRequest());
        reader.Read("\r\n"u8, out _);
        Assert.That(reader.Complete(), Is.EqualTo(HttpReadResult.NeedMoreData), "only a stray empty line");
    }

    [Test]
    public void ResetStartsANewMessageAndClearsTheRequest()
    {
        var request = new HttpRequest();
        var reader = new HttpRequestReader(request);
        var wire = "POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\nok"u8;
        reader.Read(wire, out var consumed);
        reader.Read(wire[consumed..], out _);

        reader.Reset();

        Assert.That(request.IsEmpty, Is.True);
        Assert.That(request.Headers, Is.Zero);
        Assert.That(reader.KeepAlive, Is.False);
        Assert.That(reader.Read("GET / HTTP/1.1\r\n\r\n"u8, out _), Is.EqualTo(HttpReadResult.HeaderReady));
    }

    private static bool ExpectContinue(string head)
    {
        var reader = new HttpRequestReader(new HttpRequest());
        Assert.That(reader.Read(Encoding.ASCII.GetBytes(head), out _), Is.EqualTo(HttpReadResult.HeaderReady), head);
        return reader.ExpectContinue;
    }
}
