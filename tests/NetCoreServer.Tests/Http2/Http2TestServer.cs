using System;
using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// An <see cref="HttpServer"/> whose sessions are written as a NetCoreServer user writes them (hooks and
/// SendResponseAsync of <c>Response</c>, nothing HTTP/2-specific), for the HTTP/2 tests. Routes: GET /hello, POST /echo
/// (the body back), GET /headers (the request as the hooks saw it), GET /big/N (N bytes), GET /late (answered from
/// another thread once <see cref="ReleaseLate"/>), GET /declared/N (a head declaring N bytes, then the body in two
/// SendResponseBody calls), GET /handle (answered through the request's handle from another thread), GET /detached (its
/// handle taken in the hook, answered once <see cref="ReleaseLate"/>), GET /throw (the hook throws), GET /produce/N (N
/// bytes from a producer through SendResponseStreamAsync, the bytes it gave counted in <see cref="Produced"/>).
/// </summary>
internal sealed class Http2TestServer : HttpServer
{
    private int _inHooks;

    public Http2TestServer()
        : base(IPAddress.Loopback, 0)
    {
    }

    public Http2TestServer(UnixDomainSocketEndPoint endpoint)
        : base(endpoint)
    {
    }

    /// <summary>Method and URL of every request the hooks saw, in order.</summary>
    public ConcurrentQueue<string> Seen { get; } = new();

    /// <summary>Set when two hooks of one connection ran at once.</summary>
    public bool Overlapped { get; private set; }

    /// <summary>Completed to let /late answer.</summary>
    public TaskCompletionSource ReleaseLate { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>What reached a session's OnHandlerException (GET /throw throws from its hook).</summary>
    public TaskCompletionSource<Exception> HandlerException { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Completed when /late has reached its hook.</summary>
    public TaskCompletionSource LateArrived { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Bytes the producers of /produce/N bodies have given so far.</summary>
    public long Produced => Interlocked.Read(ref _produced);

    private long _produced;

    /// <summary>Byte i of a /big/N body.</summary>
    public static byte At(int i) => (byte)('a' + i % 26);

    protected override TcpSession CreateSession() => new Session(this);

    private sealed class Session(Http2TestServer server) : HttpSession(server)
    {
        protected override void OnReceivedRequest(HttpRequest request)
        {
            if (Interlocked.Increment(ref server._inHooks) > 1)
                server.Overlapped = true;
            try
            {
                Answer(request);
            }
            finally
            {
                Interlocked.Decrement(ref server._inHooks);
            }
        }

        protected override void OnHandlerException(Exception exception) => server.HandlerException.TrySetResult(exception);

        private void Answer(HttpRequest request)
        {
            server.Seen.Enqueue(request.Method + " " + request.Url);
            var url = request.Url;
            if (url == "/hello")
            {
                SendResponseAsync(Response.MakeGetResponse("Hello, World!"));
            }
            else if (url == "/echo")
            {
                SendResponseAsync(Response.Clear().SetBegin(200).SetHeader("X-Method", request.Method).SetBody(request.BodySpan));
            }
            else if (url.StartsWith("/headers", StringComparison.Ordinal))
            {
                var text = new StringBuilder().Append(request.Method).Append(' ').Append(request.Url).Append(' ').Append(request.Protocol).Append('\n');
                for (var i = 0; i < request.Headers; i++)
                {
                    var (name, value) = request.Header(i);
                    text.Append(name).Append(": ").Append(value).Append('\n');
                }
                for (var i = 0; i < request.Cookies; i++)
                    text.Append("cookie ").Append(request.Cookie(i).Item1).Append('=').Append(request.Cookie(i).Item2).Append('\n');
                SendResponseAsync(Response.Clear().SetBegin(200).SetHeader("Connection", "keep-alive").SetHeader("Keep-Alive", "timeout=5").SetBody(text.ToString()));
            }
            else if (url.StartsWith("/big/", StringComparison.Ordinal))
            {
                var body = new byte[int.Parse(url[5..], System.Globalization.CultureInfo.InvariantCulture)];
                for (var i = 0; i < body.Length; i++)
                    body[i] = At(i);
                SendResponseAsync(Response.Clear().SetBegin(200).SetHeader("Content-Type", "application/octet-stream").SetBody(body));
            }
            else if (url.StartsWith("/declared/", StringComparison.Ordinal))
            {
                var length = int.Parse(url[10..], System.Globalization.CultureInfo.InvariantCulture);
                SendResponseAsync(Response.Clear().SetBegin(200).SetBodyLength(length));
                SendResponseBodyAsync(new string('x', length / 2));
                SendResponseBodyAsync(new string('y', length - length / 2));
            }
            else if (url == "/late")
            {
                server.LateArrived.TrySetResult();
                _ = server.ReleaseLate.Task.ContinueWith(_ => SendResponseAsync(new HttpResponse().MakeGetResponse("late")), TaskScheduler.Default);
            }
            else if (url == "/detached")
            {
                // Taken and not answered in the hook: the next stream may go to the hooks meanwhile.
                var handle = request.Handle!;
                server.LateArrived.TrySetResult();
                _ = server.ReleaseLate.Task.ContinueWith(_ => handle.SendResponseAsync(new HttpResponse().MakeGetResponse("detached " + handle.Number)), TaskScheduler.Default);
            }
            else if (url.StartsWith("/produce/", StringComparison.Ordinal))
            {
                var length = long.Parse(url[9..], System.Globalization.CultureInfo.InvariantCulture);
                _ = SendResponseStreamAsync(Response.Clear().SetBegin(200), new Producer(server, length));
            }
            else if (url == "/throw")
            {
                throw new InvalidOperationException("thrown by the hook");
            }
            else if (url == "/handle")
            {
                var handle = request.Handle!;
                _ = Task.Run(() => handle.SendResponseAsync(new HttpResponse().MakeGetResponse("by handle " + handle.Number)));
            }
            else
            {
                SendResponseAsync(Response.MakeErrorResponse(404, "not found"));
            }
        }
    }

    /// <summary>A body of unknown length made as it is read (/big/N's bytes), counting what it gave.</summary>
    private sealed class Producer(Http2TestServer server, long length) : GeneratedBodyStream(length)
    {
        protected override byte ByteAt(long i) => At((int)(i % int.MaxValue));

        protected override void Produced(int count) => Interlocked.Add(ref server._produced, count);
    }
}
