using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// The REST cache the HTTP tests drive, over HTTP or HTTPS: GET/POST/PUT/DELETE /api/cache?key=K (the body is the
/// value), TRACE echoes the request, anything else under /api is 404. Counts what its hooks saw.
/// </summary>
internal sealed class CacheApi
{
    private readonly ConcurrentDictionary<string, string> _values = new();

    public ConcurrentQueue<string> Errors { get; } = new();

    public ConcurrentQueue<string> Urls { get; } = new();

    public int Headers;

    /// <summary>How late /late/X is answered: after the pipelined request behind it has arrived.</summary>
    public static readonly TimeSpan LateDelay = TimeSpan.FromMilliseconds(300);

    /// <summary>What each late send returned (true: queued as its request's answer), in the order they were made.</summary>
    public ConcurrentQueue<bool> LateResults { get; } = new();

    /// <summary>What the first late send returned, once it returned.</summary>
    public TaskCompletionSource<bool> FirstLateResult { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Answers one request through <paramref name="send"/>.</summary>
    public void Handle(HttpRequest request, HttpResponse response, Func<HttpResponse, bool> send)
    {
        Urls.Enqueue(request.Method + " " + request.Url);
        var url = request.Url;
        var key = url.Contains("key=") ? Uri.UnescapeDataString(url[(url.IndexOf("key=", StringComparison.Ordinal) + 4)..]) : "";
        switch (request.Method)
        {
            case "TRACE":
                send(response.MakeTraceResponse(request));
                return;
            case "HEAD" or "GET" when url.StartsWith("/api/cache", StringComparison.Ordinal):
                if (_values.TryGetValue(key, out var value))
                    send(request.Method == "HEAD" ? response.MakeGetResponse(value) : response.MakeGetResponse(value));
                else
                    send(response.MakeErrorResponse(404, "no such key"));
                return;
            case "GET" when url == "/fixed":
                send(response.MakeGetResponse("Hello, World!"));
                return;
            case "GET" when url.StartsWith("/late/", StringComparison.Ordinal):
                // Answered from another thread through the session, as NetCoreServer users do.
                AnswerLater(url["/late/".Length..], LateDelay, send);
                return;
            case "GET" when url.StartsWith("/slow/", StringComparison.Ordinal):
                AnswerLater(url["/slow/".Length..], TimeSpan.FromSeconds(1), send);
                return;
            case "GET" when url == "/never":
                return;
            case "GET" when url.StartsWith("/handle/", StringComparison.Ordinal):
                AnswerThroughHandle(request.Handle!, url["/handle/".Length..]);
                return;

            case "POST" or "PUT" when url.StartsWith("/api/cache", StringComparison.Ordinal):
                _values[key] = request.Body;
                send(response.MakeOkResponse());
                return;
            case "DELETE" when url.StartsWith("/api/cache", StringComparison.Ordinal):
                send(_values.TryRemove(key, out var removed) ? response.MakeGetResponse(removed) : response.MakeErrorResponse(404, "no such key"));
                return;
            default:
                send(response.MakeErrorResponse(404, "not found"));
                return;
        }
    }

    /// <summary>What /handle/X's handle said: the answer taken, a second answer refused, answered afterwards.</summary>
    public ConcurrentQueue<(bool First, bool Second, bool Answered)> HandleResults { get; } = new();

    private void AnswerThroughHandle(HttpRequestHandle handle, string body)
        => _ = Task.Run(async () =>
        {
            await Task.Delay(LateDelay);
            var first = handle.SendResponseAsync(new HttpResponse().MakeGetResponse(body));
            var second = handle.SendResponseAsync(new HttpResponse().MakeGetResponse("again"));
            HandleResults.Enqueue((first, second, handle.IsAnswered));
        });

    private void AnswerLater(string body, TimeSpan delay, Func<HttpResponse, bool> send)
        => _ = Task.Run(async () =>
        {
            await Task.Delay(delay);
            var taken = send(new HttpResponse().MakeGetResponse(body));
            LateResults.Enqueue(taken);
            FirstLateResult.TrySetResult(taken);
        });
}

/// <summary>Bodies to stream: "fixed-N" is N bytes with a known length, "produced-N" N bytes from a producer that cannot seek.</summary>
internal sealed class ProducerStream : GeneratedBodyStream
{
    private readonly StreamConnection _connection;

    private ProducerStream(long length, StreamConnection connection)
        : base(length)
    {
        _connection = connection;
    }

    /// <summary>Byte i of every streamed body.</summary>
    public static byte At(long i) => (byte)(i * 31 + (i >> 8));

    protected override byte ByteAt(long i) => At(i);

    public static System.IO.Stream For(string name, StreamConnection connection)
    {
        var dash = name.LastIndexOf('-');
        var length = long.Parse(name[(dash + 1)..]);
        var stream = new ProducerStream(length, connection);
        if (name.StartsWith("fixed", StringComparison.Ordinal))
        {
            var bytes = new byte[length];
            for (var i = 0; i < length; i++)
                bytes[i] = At(i);
            return new System.IO.MemoryStream(bytes);
        }
        return stream;
    }

    public static long LargestPending;

    // Every read is a moment the producer runs: what waits in the send queue then is the memory streaming costs.
    protected override void Produced(int count)
    {
        var pending = _connection.BytesPending + _connection.BytesSending;
        long seen;
        do
        {
            seen = Interlocked.Read(ref LargestPending);
        } while (pending > seen && Interlocked.CompareExchange(ref LargestPending, pending, seen) != seen);
    }
}

/// <summary>HttpClientEx or HttpsClientEx: the same members on two types.</summary>
internal sealed record ExClient(
    IpStreamClient Client,
    Func<HttpRequest, TimeSpan?, System.Threading.Tasks.Task<HttpResponse>> Send,
    Func<string, TimeSpan?, System.Threading.Tasks.Task<HttpResponse>> Get,
    Func<string, string, TimeSpan?, System.Threading.Tasks.Task<HttpResponse>> Post,
    Func<string, TimeSpan?, System.Threading.Tasks.Task<HttpResponse>> Head) : IDisposable
{
    public void Dispose() => Client.Dispose();
}

/// <summary>HTTP or HTTPS for the HTTP tests: builds the real server and clients around one <see cref="CacheApi"/>.</summary>
public abstract class HttpTestTransport
{
    public static readonly HttpTestTransport Http = new PlainTransport();

    public static readonly HttpTestTransport Https = new SecureTransport();

    /// <summary>http with the server's sessions on the runtime's thread pool (OptionEventLoops = 0).</summary>
    public static readonly HttpTestTransport HttpPool = new PlainTransport(pool: true);

    /// <summary>https with the server's sessions (TLS included) on two event loops.</summary>
    public static readonly HttpTestTransport HttpsPool = new SecureTransport(pool: true);

    /// <summary>True for the secure schemes.</summary>
    public bool Secure => Scheme == "https";

    /// <summary>Starts a server over <paramref name="api"/>; <paramref name="cache"/> configures its static content cache before the content is added.</summary>
    internal abstract IDisposable Start(CacheApi api, out int port, Action<HttpOptions>? options = null, string? staticContent = null, Action<FileCache>? cache = null);

    /// <summary>Our task-based client for this scheme, seen through the members the tests use.</summary>
    internal ExClient CreateClient(int port)
    {
        if (CreatePlainClient(port) is { } plain)
            return new ExClient(plain, plain.SendRequest, plain.SendGetRequest, plain.SendPostRequest, plain.SendHeadRequest);
        var secure = CreateSecureClient(port)!;
        return new ExClient(secure, secure.SendRequest, secure.SendGetRequest, secure.SendPostRequest, secure.SendHeadRequest);
    }

    internal abstract HttpClientEx? CreatePlainClient(int port);

    internal abstract HttpsClientEx? CreateSecureClient(int port);

    public abstract string Scheme { get; }

    /// <summary>A response head for a streamed body: start line and headers only.</summary>
    internal static HttpResponse StreamHead(HttpResponse response) => response.Clear().SetBegin(200).SetHeader("Content-Type", "application/octet-stream");

    public abstract override string ToString();

    private sealed class PlainTransport(bool pool = false) : HttpTestTransport
    {
        public override string Scheme => "http";

        public override string ToString() => pool ? "http-pool" : "http";

        internal override IDisposable Start(CacheApi api, out int port, Action<HttpOptions>? options = null, string? staticContent = null, Action<FileCache>? cache = null)
        {
            var server = new Server(api).OnEngine(pool);
            options?.Invoke(server.Http);
            cache?.Invoke(server.Cache);
            if (staticContent != null)
                server.AddStaticContent(staticContent, "/static");
            server.Start();
            port = ((IPEndPoint)server.Endpoint).Port;
            return server;
        }

        internal override HttpClientEx CreatePlainClient(int port) => new(IPAddress.Loopback, port);

        internal override HttpsClientEx? CreateSecureClient(int port) => null;

        private sealed class Server(CacheApi api) : HttpServer(IPAddress.Loopback, 0)
        {
            protected override TcpSession CreateSession() => new Session(this, api);
        }

        private sealed class Session(HttpServer server, CacheApi api) : HttpSession(server)
        {
            protected override void OnReceivedRequestHeader(HttpRequest request) => Interlocked.Increment(ref api.Headers);

            protected override void OnReceivedRequest(HttpRequest request)
            {
                if (request.Url.StartsWith("/stream/", StringComparison.Ordinal))
                    _ = SendResponseStreamAsync(StreamHead(Response), ProducerStream.For(request.Url["/stream/".Length..], this));
                else
                    api.Handle(request, Response, SendResponseAsync);
            }

            protected override void OnReceivedRequestError(HttpRequest request, string error) => api.Errors.Enqueue(error);
        }
    }

    private sealed class SecureTransport(bool pool = false) : HttpTestTransport
    {
        public override string Scheme => "https";

        public override string ToString() => pool ? "https-pool" : "https";

        internal override IDisposable Start(CacheApi api, out int port, Action<HttpOptions>? options = null, string? staticContent = null, Action<FileCache>? cache = null)
        {
            var server = new Server(SslTestTransport.DefaultServerContext(), api).OnEngine(pool);
            options?.Invoke(server.Http);
            cache?.Invoke(server.Cache);
            if (staticContent != null)
                server.AddStaticContent(staticContent, "/static");
            server.Start();
            port = ((IPEndPoint)server.Endpoint).Port;
            return server;
        }

        internal override HttpClientEx? CreatePlainClient(int port) => null;

        internal override HttpsClientEx CreateSecureClient(int port) => new(SslTestTransport.DefaultClientContext(), IPAddress.Loopback, port);

        private sealed class Server(SslContext context, CacheApi api) : HttpsServer(context, IPAddress.Loopback, 0)
        {
            protected override SslSession CreateSession() => new Session(this, api);
        }

        private sealed class Session(HttpsServer server, CacheApi api) : HttpsSession(server)
        {
            protected override void OnReceivedRequestHeader(HttpRequest request) => Interlocked.Increment(ref api.Headers);

            protected override void OnReceivedRequest(HttpRequest request)
            {
                if (request.Url.StartsWith("/stream/", StringComparison.Ordinal))
                    _ = SendResponseStreamAsync(StreamHead(Response), ProducerStream.For(request.Url["/stream/".Length..], this));
                else
                    api.Handle(request, Response, SendResponseAsync);
            }

            protected override void OnReceivedRequestError(HttpRequest request, string error) => api.Errors.Enqueue(error);
        }
    }
}
