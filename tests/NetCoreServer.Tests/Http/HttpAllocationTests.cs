using System;
using System.Text;
using NetCoreServer.Testing;
using NUnit.Framework;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// Steady state allocates nothing: parsing into a reused request and building into a reused response, measured with
/// the current thread's allocation counter around 10,000 messages after a warm-up (which lets the buffers grow and
/// the JIT settle).
/// </summary>
[TestFixture]
[NonParallelizable]
[Category(TestLeg.Isolated)]
public sealed class HttpAllocationTests
{
    private const int Warmup = 2_000;
    private const int Measured = 10_000;

    private static readonly byte[] s_get = Encoding.ASCII.GetBytes(
        "GET /api/items?page=2 HTTP/1.1\r\nHost: example.com\r\nUser-Agent: bench/1.0\r\nAccept: application/json\r\n"
        + "Accept-Encoding: gzip, deflate\r\nConnection: keep-alive\r\n\r\n");

    private static readonly byte[] s_post = Encoding.ASCII.GetBytes(
        "POST /api/items HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/json\r\nContent-Length: 27\r\n\r\n"
        + "{\"name\":\"widget\",\"qty\":12}\n");

    private static readonly byte[] s_chunked = Encoding.ASCII.GetBytes(
        "POST /upload HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n");

    [TestCase("GET")]
    [TestCase("POST")]
    [TestCase("chunked POST")]
    public void ParsingIntoAReusedRequestAllocatesNothing(string which)
    {
        var wire = which switch
        {
            "GET" => s_get,
            "POST" => s_post,
            _ => s_chunked,
        };
        var request = new HttpRequest();
        var reader = new HttpRequestReader(request);

        var allocated = Measure(() =>
        {
            var failures = 0;
            for (var i = 0; i < Measured; i++)
                failures += ParseOnce(reader, wire) ? 0 : 1;
            return failures;
        }, () => ParseOnce(reader, wire));

        TestContext.Out.WriteLine($"{which}: {allocated} bytes allocated over {Measured} parses");
        Assert.That(allocated, Is.Zero);
        Assert.That(request.Method, Is.EqualTo(which == "GET" ? "GET" : "POST"));
    }

    [Test]
    public void AServerReadingTheMethodAndUrlOfARepeatedGetAndLookingForStaticContentAllocatesNothing()
    {
        // What an HTTP session does for each GET of a keep-alive client asking for the same URL: parse it, read Method
        // and Url (the hook and the dispatch do), and look for static content in a cache that holds none.
        var request = new HttpRequest();
        var reader = new HttpRequestReader(request);
        var cache = new FileCache();
        var wire = Encoding.ASCII.GetBytes("GET /fixed HTTP/1.1\r\nHost: example.com\r\n\r\n");

        bool Once() => ParseOnce(reader, wire) && request.Method == "GET" && request.Url == "/fixed" && StaticContent.Answer(cache, request, out var streamed) == null && streamed == null;

        var allocated = Measure(() =>
        {
            var failures = 0;
            for (var i = 0; i < Measured; i++)
                failures += Once() ? 0 : 1;
            return failures;
        }, () => Once());

        TestContext.Out.WriteLine($"GET /fixed: {allocated} bytes allocated over {Measured} requests");
        Assert.That(allocated, Is.Zero);
    }

    [Test]
    public void BuildingIntoAReusedResponseAllocatesNothingWhenNoStringIsRead()
    {
        var response = new HttpResponse();
        var body = "{\"ok\":true}"u8.ToArray();

        void BuildAll()
        {
            response.MakeGetResponse("Hello, world!", "text/plain; charset=UTF-8");
            response.MakeErrorResponse(404, "not found");
            response.MakeOkResponse(204);
            response.SetBegin(200).SetHeader("Server", "NetCoreServer").SetCookie("session", "abc", 3600, "/")
                .SetContentType(".json").SetBody(body);
        }

        var allocated = Measure(() =>
        {
            for (var i = 0; i < Measured; i++)
                BuildAll();
            return 0;
        }, () => BuildAll());

        TestContext.Out.WriteLine($"response build: {allocated} bytes allocated over {Measured} x 4 responses");
        Assert.That(allocated, Is.Zero);
        Assert.That(response.Status, Is.EqualTo(200));
    }

    [Test]
    public void BuildingIntoAReusedRequestAllocatesNothingWhenNoStringIsRead()
    {
        var request = new HttpRequest();

        void BuildAll()
        {
            request.MakeGetRequest("/index.html");
            request.SetBegin("POST", "/api").SetHeader("Host", "example.com").SetCookie("a", "1").AddCookie("b", "2").SetBody("payload");
        }

        var allocated = Measure(() =>
        {
            for (var i = 0; i < Measured; i++)
                BuildAll();
            return 0;
        }, () => BuildAll());

        TestContext.Out.WriteLine($"request build: {allocated} bytes allocated over {Measured} x 2 requests");
        Assert.That(allocated, Is.Zero);
    }

    /// <summary>Bytes allocated by <paramref name="measured"/> on this thread after <see cref="Warmup"/> runs of <paramref name="warmup"/>.</summary>
    private static long Measure(Func<int> measured, Action warmup)
    {
        for (var i = 0; i < Warmup; i++)
            warmup();
        var before = GC.GetAllocatedBytesForCurrentThread();
        var failures = measured();
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        Assert.That(failures, Is.Zero, "every message parsed");
        return allocated;
    }

    /// <summary>One whole message: HeaderReady, then MessageReady (the next call starts the next message).</summary>
    private static bool ParseOnce(HttpRequestReader reader, byte[] wire)
    {
        if (reader.Read(wire, out var head) != HttpReadResult.HeaderReady)
            return false;
        if (reader.Read(wire.AsSpan(head), out var body) != HttpReadResult.MessageReady)
            return false;
        // Common strings come from the shared table: reading them costs nothing either.
        return head + body == wire.Length && reader.Request.Method.Length > 0 && reader.Request.Protocol.Length == 8;
    }
}
