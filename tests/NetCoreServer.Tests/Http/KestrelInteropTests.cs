using System;
using System.Diagnostics;
using System.IO;
using System.Net;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// Our HttpClientEx against a server nobody here wrote: ASP.NET Core's Kestrel (performance/KestrelServer, built and run
/// as a process). Kestrel insists on HTTP/1.1's Host field (RFC 9112, 3.2: 400 without it), which our requests, like
/// NetCoreServer's, do not add by themselves, so every request here sets it.
/// </summary>
[TestFixture]
public sealed class KestrelInteropTests
{
    private static readonly TimeSpan s_requestTimeout = TimeSpan.FromSeconds(10);

    [Test]
    public async Task HttpClientExKeepsOneConnectionToKestrelAndFailsAtOnceWhenKestrelIsGone()
    {
        var assembly = await KestrelServerProcess.Build();
        using var server = await KestrelServerProcess.Start(assembly);
        using var client = new CountingClient(IPAddress.Loopback, server.Port);
        var host = $"127.0.0.1:{server.Port}";

        for (var i = 0; i < 5; i++)
        {
            var fixedAnswer = await client.SendRequest(Get(client, host), s_requestTimeout);
            Assert.That(fixedAnswer.Status, Is.EqualTo(200), $"GET /fixed #{i + 1}: {fixedAnswer}; server: {server.Output}");
            Assert.That(fixedAnswer.Body, Is.EqualTo("Hello, World!"), $"GET /fixed #{i + 1}");
            Assert.That(HeaderValue(fixedAnswer, "Content-Type"), Is.EqualTo("text/plain; charset=utf-8"), $"GET /fixed #{i + 1}");
        }
        Assert.That(client.Connects, Is.EqualTo(1), "five GETs in a row go over one kept-alive connection");

        const string body = "trace me: 0123456789 abcdefghijklmnopqrstuvwxyz";
        var trace = await client.SendRequest(client.Request.SetBegin("TRACE", "/echo?n=1").SetHeader("Host", host).SetBody(body), s_requestTimeout);
        Assert.That(trace.Status, Is.EqualTo(200), trace.ToString());
        Assert.That(HeaderValue(trace, "Content-Type"), Is.EqualTo("message/http"));
        Assert.That(trace.Body, Does.StartWith("TRACE /echo?n=1 HTTP/1.1\r\n"), "the request line comes back first");
        Assert.That(trace.Body, Does.Contain($"\r\nHost: {host}\r\n").And.Contain($"\r\nContent-Length: {body.Length}\r\n"), "the request's fields come back");
        Assert.That(trace.Body, Does.EndWith("\r\n\r\n" + body), "the request's body comes back after its head");

        var unknown = await client.SendRequest(client.Request.SetBegin("POST", "/nowhere").SetHeader("Host", host).SetHeader("Content-Type", "text/plain").SetBody("some data"), s_requestTimeout);
        Assert.That(unknown.Status, Is.EqualTo(404), unknown.ToString());
        Assert.That(client.Connects, Is.EqualTo(1), "the TRACE and the POST reuse the same connection");

        await server.Stop();
        var clock = Stopwatch.StartNew();
        Assert.That(
            async () => await client.SendRequest(Get(client, host), s_requestTimeout),
            Throws.InstanceOf<IOException>(),
            "with Kestrel gone the next request fails (connection closed or refused) instead of waiting for its timeout");
        Assert.That(clock.Elapsed, Is.LessThan(s_requestTimeout), "the failure comes at once, not after the request timeout");
    }

    // The head is written in order, and SetBody ends it: Host goes before the body (MakeGetRequest would end the head).
    private static HttpRequest Get(HttpClientEx client, string host) => client.Request.SetBegin("GET", "/fixed").SetHeader("Host", host).SetBody();

    private static string? HeaderValue(HttpResponse response, string name)
    {
        for (var i = 0; i < response.Headers; i++)
        {
            var (key, value) = response.Header(i);
            if (string.Equals(key, name, StringComparison.OrdinalIgnoreCase))
                return value;
        }
        return null;
    }

    /// <summary>Our task-based client, counting the connections it makes.</summary>
    private sealed class CountingClient(IPAddress address, int port) : HttpClientEx(address, port)
    {
        private int _connects;

        public int Connects => Volatile.Read(ref _connects);

        protected override void OnConnected()
        {
            Interlocked.Increment(ref _connects);
            base.OnConnected();
        }
    }
}
