using System;
using System.Collections.Concurrent;
using System.Net;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Http;
using NetCoreServer.Tests.Http;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// HTTP and HTTPS classes subclassed the way NetCoreServer's HTTP examples do, run end to end: a session answering in
/// OnReceivedRequest with <c>SendResponseAsync(Response.MakeGetResponse(...))</c> or the synchronous
/// <c>SendResponse</c>, a client sending <c>Request.MakeXxxRequest</c> from OnConnected and reading
/// OnReceivedResponse, and HttpClientEx/HttpsClientEx awaited.
/// </summary>
[TestFixture]
public sealed class HttpCompatibilityTests
{
    /// <summary>NetCoreServer's HttpServer example, shortened: a key-value cache.</summary>
    private static void Answer(HttpRequest request, HttpResponse response, ConcurrentDictionary<string, string> cache, Func<HttpResponse, bool> sendAsync, Func<HttpResponse, long> send)
    {
        var key = request.Url.Replace("/api/cache", "").TrimStart('?').Replace("key=", "");
        if (request.Method == "GET" && cache.TryGetValue(key, out var value))
            sendAsync(response.MakeGetResponse(value));
        else if (request.Method == "GET")
            sendAsync(response.MakeErrorResponse(404, "Required cache value was not found for the key: " + key));
        else if (request.Method is "POST" or "PUT")
        {
            cache[key] = request.Body;
            send(response.MakeOkResponse());
        }
        else if (request.Method == "DELETE")
            sendAsync(cache.TryRemove(key, out var removed) ? response.MakeGetResponse(removed) : response.MakeErrorResponse(404, "not found"));
        else if (request.Method == "OPTIONS")
            sendAsync(response.MakeOptionsResponse());
        else if (request.Method == "TRACE")
            sendAsync(response.MakeTraceResponse(request));
        else
            sendAsync(response.MakeErrorResponse("Unsupported HTTP method: " + request.Method));
    }

    private sealed class CacheSession(HttpServer server, ConcurrentDictionary<string, string> cache) : HttpSession(server)
    {
        protected override void OnReceivedRequest(HttpRequest request) => Answer(request, Response, cache, SendResponseAsync, SendResponse);

        protected override void OnReceivedRequestError(HttpRequest request, string error) => Console.WriteLine($"Request error: {error}");
    }

    private sealed class CacheServer(IPAddress address, int port) : HttpServer(address, port)
    {
        public ConcurrentDictionary<string, string> Values { get; } = new();

        protected override TcpSession CreateSession() => new CacheSession(this, Values);
    }

    private sealed class SecureCacheSession(HttpsServer server, ConcurrentDictionary<string, string> cache) : HttpsSession(server)
    {
        protected override void OnReceivedRequest(HttpRequest request) => Answer(request, Response, cache, SendResponseAsync, SendResponse);
    }

    private sealed class SecureCacheServer(SslContext context, IPAddress address, int port) : HttpsServer(context, address, port)
    {
        public ConcurrentDictionary<string, string> Values { get; } = new();

        protected override SslSession CreateSession() => new SecureCacheSession(this, Values);
    }

    /// <summary>NetCoreServer's HttpClient pattern: the request goes out from OnConnected, the answer comes to OnReceivedResponse.</summary>
    private sealed class TraceClient(IPAddress address, int port) : HttpClient(address, port)
    {
        public TaskCompletionSource<(int Status, string Body)> Answer { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        protected override void OnConnected() => SendRequestAsync(Request.MakeTraceRequest("/trace"));

        protected override void OnReceivedResponse(HttpResponse response) => Answer.TrySetResult((response.Status, response.Body));

        protected override void OnReceivedResponseError(HttpResponse response, string error) => Answer.TrySetException(new InvalidOperationException(error));
    }

    [Test]
    public async Task AnHttpServerSubclassAnswersAnHttpClientExAsNetCoreServersExampleDoes()
    {
        using var server = new CacheServer(IPAddress.Loopback, 0);
        Assert.That(server.Start(), Is.True);
        var port = ((IPEndPoint)server.Endpoint).Port;
        using var client = new HttpClientEx(IPAddress.Loopback, port);

        var put = await Wait.For(client.SendPutRequest("/api/cache?key=test", "value"), "PUT answered");
        Assert.That(put.Status, Is.EqualTo(200));
        var get = await Wait.For(client.SendGetRequest("/api/cache?key=test"), "GET answered");
        Assert.That((get.Status, get.Body), Is.EqualTo((200, "value")));
        var options = await Wait.For(client.SendOptionsRequest("/api/cache"), "OPTIONS answered");
        Assert.That(options.Status, Is.EqualTo(200));
        var delete = await Wait.For(client.SendDeleteRequest("/api/cache?key=test"), "DELETE answered");
        Assert.That(delete.Body, Is.EqualTo("value"));
        var missing = await Wait.For(client.SendGetRequest("/api/cache?key=test"), "GET of a removed key answered");
        Assert.That(missing.Status, Is.EqualTo(404));
        Assert.That(server.Values, Is.Empty);
    }

    [Test]
    public async Task AnHttpClientSubclassSendsFromOnConnectedAndReadsOnReceivedResponse()
    {
        using var server = new CacheServer(IPAddress.Loopback, 0);
        Assert.That(server.Start(), Is.True);
        using var client = new TraceClient(IPAddress.Loopback, ((IPEndPoint)server.Endpoint).Port);

        Assert.That(client.ConnectAsync(), Is.True);
        var (status, body) = await Wait.For(client.Answer.Task, "the TRACE response");

        Assert.That(status, Is.EqualTo(200));
        Assert.That(body, Does.StartWith("TRACE /trace HTTP/1.1"), "TRACE echoes the request it received");
    }

    /// <summary>What NetCoreServer's own HttpClient puts on the wire: the request as its builders made it, with no Host.</summary>
    private static byte[] AsNetCoreServerSendsIt(HttpRequest request) => request.Cache.Data.AsSpan(0, checked((int)request.Cache.Size)).ToArray();

    [Test]
    public async Task RequestsOfNetCoreServersOwnHttpClientWithoutHostAreAnsweredByDefault()
    {
        using var server = new CacheServer(IPAddress.Loopback, 0);
        Assert.That(server.Start(), Is.True);
        server.Values["k"] = "v";
        using var socket = await HttpServerTests.Connect(((IPEndPoint)server.Endpoint).Port);

        // Its HTTP trace benchmark's request, then a GET as its examples make it; the last one ends the connection.
        await socket.SendAsync(AsNetCoreServerSendsIt(new HttpRequest().MakeTraceRequest("/trace")));
        await socket.SendAsync(AsNetCoreServerSendsIt(new HttpRequest().SetBegin("GET", "/api/cache?key=k").SetHeader("Connection", "close").SetBody()));
        var answers = await HttpServerTests.ReadToEnd(socket);

        Assert.That(answers, Does.StartWith("HTTP/1.1 200 ").And.Contain("TRACE /trace HTTP/1.1"), "the TRACE, answered");
        Assert.That(answers.Split("HTTP/1.1 200 ").Length - 1, Is.EqualTo(2), answers);
        Assert.That(answers, Does.EndWith("\r\n\r\nv"), "the GET, answered with the value");
    }

    [Test]
    public async Task RequireHostRefusesARequestWithoutHostWithA400AndAClose()
    {
        using var server = new CacheServer(IPAddress.Loopback, 0);
        server.Http.RequireHost = true;
        Assert.That(server.Start(), Is.True);
        using var socket = await HttpServerTests.Connect(((IPEndPoint)server.Endpoint).Port);

        await socket.SendAsync(AsNetCoreServerSendsIt(new HttpRequest().MakeTraceRequest("/trace")));
        var answer = await HttpServerTests.ReadToEnd(socket);

        Assert.That(answer, Does.StartWith("HTTP/1.1 400 ").And.Contain("Connection: close"), answer);
    }

    [Test]
    public async Task OurHttpClientAddsHostToARequestMadeAsInNetCoreServer()
    {
        using var server = new CacheServer(IPAddress.Loopback, 0);
        server.Http.RequireHost = true;
        Assert.That(server.Start(), Is.True);
        var port = ((IPEndPoint)server.Endpoint).Port;
        using var client = new TraceClient(IPAddress.Loopback, port);

        Assert.That(client.ConnectAsync(), Is.True);
        var (status, body) = await Wait.For(client.Answer.Task, "the TRACE response");

        Assert.That(status, Is.EqualTo(200), "a server that requires Host answers our client");
        Assert.That(body, Does.Contain($"Host: 127.0.0.1:{port}\r\n"), "the Host field the client added, echoed by TRACE");
    }

    [Test]
    public async Task AnHttpsServerSubclassAnswersAnHttpsClientEx()
    {
        using var server = new SecureCacheServer(SslTestTransport.DefaultServerContext(), IPAddress.Loopback, 0);
        Assert.That(server.Start(), Is.True);
        using var client = new HttpsClientEx(SslTestTransport.DefaultClientContext(), IPAddress.Loopback, ((IPEndPoint)server.Endpoint).Port);

        var post = await Wait.For(client.SendPostRequest("/api/cache?key=secure", "over TLS"), "POST answered");
        Assert.That(post.Status, Is.EqualTo(200));
        var get = await Wait.For(client.SendGetRequest("/api/cache?key=secure"), "GET answered");
        Assert.That(get.Body, Is.EqualTo("over TLS"));
        var trace = await Wait.For(client.SendTraceRequest("/"), "TRACE answered");
        Assert.That(trace.Status, Is.EqualTo(200));
    }
}
