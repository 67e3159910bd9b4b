using System;
using System.Text;
using NUnit.Framework;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// The fluent builders of <see cref="HttpRequest"/> and <see cref="HttpResponse"/> write exactly the wire text written
/// out here by hand, and the properties read back what was built or parsed.
/// </summary>
[TestFixture]
public sealed class HttpBuilderTests
{
    private static string Wire(Buffer cache) => Encoding.UTF8.GetString(cache.Data, 0, (int)cache.Size);

    [Test]
    public void RequestMakersWriteTheExpectedBytes()
    {
        var request = new HttpRequest();
        Assert.Multiple(() =>
        {
            Assert.That(Wire(request.MakeGetRequest("/test").Cache), Is.EqualTo("GET /test HTTP/1.1\r\nContent-Length: 0\r\n\r\n"));
            Assert.That(Wire(request.MakeHeadRequest("/h").Cache), Is.EqualTo("HEAD /h HTTP/1.1\r\nContent-Length: 0\r\n\r\n"));
            Assert.That(Wire(request.MakeDeleteRequest("/d").Cache), Is.EqualTo("DELETE /d HTTP/1.1\r\nContent-Length: 0\r\n\r\n"));
            Assert.That(Wire(request.MakeOptionsRequest("*").Cache), Is.EqualTo("OPTIONS * HTTP/1.1\r\nContent-Length: 0\r\n\r\n"));
            Assert.That(Wire(request.MakeTraceRequest("/t").Cache), Is.EqualTo("TRACE /t HTTP/1.1\r\nContent-Length: 0\r\n\r\n"));
            Assert.That(Wire(request.MakePostRequest("/p", "hi").Cache),
                Is.EqualTo("POST /p HTTP/1.1\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: 2\r\n\r\nhi"));
            Assert.That(Wire(request.MakePostRequest("/p", "caf\u00e9", "").Cache),
                Is.EqualTo("POST /p HTTP/1.1\r\nContent-Length: 5\r\n\r\ncaf\u00e9"), "the length counts UTF-8 bytes; no Content-Type when empty");
            Assert.That(Wire(request.MakePutRequest("/u", new byte[] { 65, 66, 67 }).Cache),
                Is.EqualTo("PUT /u HTTP/1.1\r\nContent-Length: 3\r\n\r\nABC"));
            Assert.That(Wire(request.MakePutRequest("/u", "xy".AsSpan(), "application/json").Cache),
                Is.EqualTo("PUT /u HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\nxy"));
            Assert.That(Wire(request.MakePostRequest("/b", new Buffer(new byte[] { 49, 50 }), "application/octet-stream").Cache),
                Is.EqualTo("POST /b HTTP/1.1\r\nContent-Type: application/octet-stream\r\nContent-Length: 2\r\n\r\n12"));
        });
    }

    [Test]
    public void RequestFieldsAndCookiesAreWrittenInOrder()
    {
        var request = new HttpRequest("GET", "/c", "HTTP/1.0")
            .SetHeader("Host", "example.com")
            .SetCookie("a", "1")
            .AddCookie("b", "2")
            .SetHeader("Accept", "*/*")
            .SetBody();

        Assert.That(Wire(request.Cache), Is.EqualTo("GET /c HTTP/1.0\r\nHost: example.com\r\nCookie: a=1; b=2\r\nAccept: */*\r\nContent-Length: 0\r\n\r\n"));
        Assert.That(request.Headers, Is.EqualTo(4));
        Assert.That(request.Header(1), Is.EqualTo(("Cookie", "a=1; b=2")));
        Assert.That(request.Cookies, Is.EqualTo(2));
        Assert.That(request.Cookie(1), Is.EqualTo(("b", "2")));
        Assert.That(request.Protocol, Is.EqualTo("HTTP/1.0"));
    }

    [Test]
    public void AddCookieWithoutACookieLineBeforeItWritesOne()
    {
        var request = new HttpRequest("GET", "/").AddCookie("solo", "x").SetBody();

        Assert.That(Wire(request.Cache), Is.EqualTo("GET / HTTP/1.1\r\nCookie: solo=x\r\nContent-Length: 0\r\n\r\n"));
    }

    [Test]
    public void SetBodyLengthEndsTheHeadWithoutABody()
    {
        var response = new HttpResponse(200).SetHeader("Content-Type", "video/mp4").SetBodyLength(1000);

        Assert.That(Wire(response.Cache), Is.EqualTo("HTTP/1.1 200 OK\r\nContent-Type: video/mp4\r\nContent-Length: 1000\r\n\r\n"));
        Assert.That(response.BodyLength, Is.EqualTo(1000));
        Assert.That(response.Body, Is.Empty);
    }

    [Test]
    public void ResponseMakersWriteTheExpectedBytes()
    {
        var response = new HttpResponse();
        Assert.Multiple(() =>
        {
            Assert.That(Wire(response.MakeOkResponse().Cache), Is.EqualTo("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
            Assert.That(Wire(response.MakeOkResponse(204).Cache), Is.EqualTo("HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n"));
            Assert.That(Wire(response.MakeHeadResponse().Cache), Is.EqualTo("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
            Assert.That(Wire(response.MakeErrorResponse("oops").Cache),
                Is.EqualTo("HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: 4\r\n\r\noops"));
            Assert.That(Wire(response.MakeErrorResponse(404, "nope").Cache),
                Is.EqualTo("HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: 4\r\n\r\nnope"));
            Assert.That(Wire(response.MakeErrorResponse(431, "", "").Cache),
                Is.EqualTo("HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\n\r\n"));
            Assert.That(Wire(response.MakeGetResponse("hello").Cache),
                Is.EqualTo("HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=UTF-8\r\nContent-Length: 5\r\n\r\nhello"));
            Assert.That(Wire(response.MakeGetResponse(new byte[] { 1, 2 }).Cache), Is.EqualTo("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n\u0001\u0002"));
            Assert.That(Wire(response.MakeOptionsResponse().Cache),
                Is.EqualTo("HTTP/1.1 200 OK\r\nAllow: HEAD,GET,POST,PUT,DELETE,OPTIONS,TRACE\r\nContent-Length: 0\r\n\r\n"));
            Assert.That(Wire(response.MakeTraceResponse("GET / HTTP/1.1\r\n\r\n").Cache),
                Is.EqualTo("HTTP/1.1 200 OK\r\nContent-Type: message/http\r\nContent-Length: 18\r\n\r\nGET / HTTP/1.1\r\n\r\n"));
            Assert.That(Wire(new HttpResponse(418, "Teapot", "HTTP/1.0").SetBody("t").Cache), Is.EqualTo("HTTP/1.0 418 Teapot\r\nContent-Length: 1\r\n\r\nt"));
            Assert.That(Wire(new HttpResponse(299).SetBody().Cache), Is.EqualTo("HTTP/1.1 299 Unknown\r\nContent-Length: 0\r\n\r\n"));
        });
    }

    [Test]
    public void ATraceResponseEchoesTheRequestBytes()
    {
        var request = new HttpRequest().MakeGetRequest("/echo");

        var response = new HttpResponse().MakeTraceResponse(request);

        Assert.That(response.Body, Is.EqualTo("GET /echo HTTP/1.1\r\nContent-Length: 0\r\n\r\n"));
    }

    [Test]
    public void SetCookieWritesItsAttributes()
    {
        var response = new HttpResponse(200)
            .SetCookie("session", "abc")
            .SetCookie("pref", "dark", 60, "/app", "example.com", secure: false, strict: false, httpOnly: false)
            .SetContentType(".json")
            .SetContentType(".unknown")
            .SetContentType(".PNG")
            .SetBody();

        Assert.That(Wire(response.Cache), Is.EqualTo(
            "HTTP/1.1 200 OK\r\n"
            + "Set-Cookie: session=abc; Max-Age=86400; Secure; SameSite=Strict; HttpOnly\r\n"
            + "Set-Cookie: pref=dark; Max-Age=60; Domain=example.com; Path=/app\r\n"
            + "Content-Type: application/json\r\n"
            + "Content-Type: image/png\r\n"
            + "Content-Length: 0\r\n\r\n"));
        Assert.That(response.Header(0), Is.EqualTo(("Set-Cookie", "session=abc; Max-Age=86400; Secure; SameSite=Strict; HttpOnly")));
    }

    [Test]
    public void ABuiltRequestReadsBackThroughTheReader()
    {
        var built = new HttpRequest().MakePostRequest("/round?trip=1", "payload \u2713", "text/plain");
        var parsed = new HttpRequest();
        var reader = new HttpRequestReader(parsed);
        var wire = built.Cache.Data.AsSpan(0, (int)built.Cache.Size);

        Assert.That(reader.Read(wire, out var head), Is.EqualTo(HttpReadResult.HeaderReady));
        Assert.That(reader.Read(wire[head..], out _), Is.EqualTo(HttpReadResult.MessageReady));
        Assert.That(parsed.Method, Is.EqualTo(built.Method));
        Assert.That(parsed.Url, Is.EqualTo(built.Url));
        Assert.That(parsed.Headers, Is.EqualTo(built.Headers));
        Assert.That(parsed.Header(1), Is.EqualTo(built.Header(1)));
        Assert.That(parsed.Body, Is.EqualTo("payload \u2713"));
        Assert.That(parsed.BodyBytes, Is.EqualTo(built.BodyBytes));
        Assert.That(parsed.Cache.Size, Is.EqualTo(built.Cache.Size));
    }

    [Test]
    public void ParsedRequestPropertiesReadTheirParts()
    {
        var request = new HttpRequest();
        var reader = new HttpRequestReader(request);
        var wire = "POST /path?q=1 HTTP/1.1\r\nHost: h\r\nCookie: a=1; b = 2;c=3; =skip; d=\r\nContent-Length: 4\r\n\r\nbody"u8;
        reader.Read(wire, out var head);
        reader.Read(wire[head..], out _);

        Assert.That(request.IsEmpty, Is.False);
        Assert.That(request.IsErrorSet, Is.False);
        Assert.That(request.Method, Is.SameAs(request.Method), "a part's string is made once");
        var other = new HttpRequest();
        new HttpRequestReader(other).Read("POST / HTTP/1.1\r\n\r\n"u8, out _);
        Assert.That(request.Method, Is.SameAs(other.Method), "common methods come from a shared table");
        Assert.That(request.Protocol, Is.SameAs(other.Protocol));
        Assert.That(request.Url, Is.EqualTo("/path?q=1"));
        Assert.That(request.Headers, Is.EqualTo(3));
        Assert.That(request.Header(0), Is.EqualTo(("Host", "h")));
        Assert.That(request.Header(3), Is.EqualTo(("", "")), "out of range");
        Assert.That(request.Cookies, Is.EqualTo(4));
        Assert.That(request.Cookie(0), Is.EqualTo(("a", "1")));
        Assert.That(request.Cookie(1), Is.EqualTo(("b", "2")));
        Assert.That(request.Cookie(2), Is.EqualTo(("c", "3")));
        Assert.That(request.Cookie(3), Is.EqualTo(("d", "")));
        Assert.That(request.Body, Is.EqualTo("body"));
        Assert.That(request.BodySpan.ToArray(), Is.EqualTo("body"u8.ToArray()));
        Assert.That(request.BodyLength, Is.EqualTo(4));
        Assert.That(request.ToString(), Does.Contain("Request method: POST").And.Contain("Host : h").And.Contain("Request body: 4"));

        request.Clear();
        Assert.That(request.IsEmpty, Is.True);
        Assert.That(request.Method, Is.Empty);
        Assert.That(request.Cookies, Is.Zero);
    }

    [Test]
    public void ParsedResponsePropertiesReadTheirParts()
    {
        var response = new HttpResponse();
        var reader = new HttpResponseReader(response);
        var wire = "HTTP/1.1 404 Not Found\r\nServer: test\r\nContent-Length: 3\r\n\r\nnah"u8;
        reader.Read(wire, out var head);
        reader.Read(wire[head..], out _);

        Assert.That(response.Status, Is.EqualTo(404));
        Assert.That(response.StatusPhrase, Is.SameAs(new HttpResponse(404).StatusPhrase), "the standard phrase is shared");
        Assert.That(response.Protocol, Is.EqualTo("HTTP/1.1"));
        Assert.That(response.Header(0), Is.EqualTo(("Server", "test")));
        Assert.That(response.Body, Is.EqualTo("nah"));
        Assert.That(response.ToString(), Does.Contain("Status: 404").And.Contain("Status phrase: Not Found"));
        Assert.That(response.IsEmpty, Is.False);
        Assert.That(new HttpResponse().IsEmpty, Is.True);
    }
}
