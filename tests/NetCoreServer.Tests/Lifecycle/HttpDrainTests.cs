using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Tests.Lifecycle;

/// <summary>
/// StopAsync on an HTTP/1.1 server, the way a load balancer's client sees it: a request in progress is answered, with
/// <c>Connection: close</c>, and the connection closes after it; an idle keep-alive connection closes at once.
/// </summary>
[TestFixture]
public sealed class HttpDrainTests
{
    /// <summary>Answers "/now" at once; any other request is kept for the test to answer through its handle.</summary>
    private sealed class HoldingServer() : HttpServer(IPAddress.Loopback, 0)
    {
        public readonly TaskCompletionSource<HttpRequestHandle> Held = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public readonly TaskCompletionSource InHook = new(TaskCreationOptions.RunContinuationsAsynchronously);
        public readonly ManualResetEventSlim Release = new();
        public int Requests;

        public int BoundPort => ((IPEndPoint)Endpoint).Port;

        protected override TcpSession CreateSession() => new HoldingSession(this);

        private sealed class HoldingSession(HoldingServer server) : HttpSession(server)
        {
            protected override void OnReceivedRequest(HttpRequest request)
            {
                Interlocked.Increment(ref server.Requests);
                if (request.Url == "/block")
                {
                    // Answers in the hook, once the test has begun the drain.
                    server.InHook.TrySetResult();
                    server.Release.Wait(Wait.Default);
                    SendResponseAsync(Response.MakeGetResponse("blocked"));
                }
                else if (request.Url == "/now")
                    SendResponseAsync(Response.MakeGetResponse("now"));
                else
                    server.Held.TrySetResult(request.Handle!);
            }
        }
    }

    /// <summary>Serves a folder of static content, and holds the first cached answer until the test releases it.</summary>
    private sealed class HoldingStaticServer : HttpServer
    {
        public readonly TaskCompletionSource<Action> Held = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public HoldingStaticServer(string folder)
            : base(IPAddress.Loopback, 0) => AddStaticContent(folder, "/static");

        public int BoundPort => ((IPEndPoint)Endpoint).Port;

        protected override TcpSession CreateSession() => new HoldingStaticSession(this);

        private sealed class HoldingStaticSession(HoldingStaticServer server) : HttpSession(server)
        {
            protected override void OnReceivedCachedRequest(HttpRequest request, byte[] content)
            {
                if (!server.Held.TrySetResult(() => base.OnReceivedCachedRequest(request, content)))
                    base.OnReceivedCachedRequest(request, content);
            }
        }
    }

    private static async Task<Socket> ConnectAsync(int port)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await Wait.For(socket.ConnectAsync(IPAddress.Loopback, port), "connect");
        return socket;
    }

    private static Task SendAsync(Socket socket, string text) => socket.SendAsync(Encoding.ASCII.GetBytes(text), SocketFlags.None);

    /// <summary>A client whose GET /held reached the hook, which keeps its answer owed; returns the client and the handle.</summary>
    private static async Task<(Socket Client, HttpRequestHandle Handle)> HoldOneRequestAsync(HoldingServer server)
    {
        var client = await ConnectAsync(server.BoundPort);
        try
        {
            await SendAsync(client, "GET /held HTTP/1.1\r\nHost: localhost\r\n\r\n");
            return (client, await Wait.For(server.Held.Task, "the request reached the hook"));
        }
        catch
        {
            client.Dispose();
            throw;
        }
    }

    /// <summary>Everything the server sends until it closes the connection.</summary>
    private static async Task<string> ReadToEndAsync(Socket socket)
    {
        var buffer = new byte[4096];
        var text = new StringBuilder();
        while (true)
        {
            var read = await socket.ReceiveAsync(buffer, SocketFlags.None);
            if (read == 0)
                return text.ToString();
            text.Append(Encoding.ASCII.GetString(buffer, 0, read));
        }
    }

    /// <summary>One response read whole: its head up to the blank line and the Content-Length body after it.</summary>
    private static async Task<string> ReadResponseAsync(Socket socket)
    {
        var buffer = new byte[1];
        var text = new StringBuilder();
        var bodyLeft = -1;
        while (bodyLeft != 0)
        {
            if (await socket.ReceiveAsync(buffer, SocketFlags.None) == 0)
                throw new InvalidOperationException("the connection closed in a response: " + text);
            text.Append((char)buffer[0]);
            if (bodyLeft > 0)
                bodyLeft--;
            else if (bodyLeft < 0 && text.ToString().EndsWith("\r\n\r\n", StringComparison.Ordinal))
            {
                var head = text.ToString();
                var at = head.IndexOf("Content-Length: ", StringComparison.OrdinalIgnoreCase) + "Content-Length: ".Length;
                bodyLeft = int.Parse(head[at..head.IndexOf("\r\n", at, StringComparison.Ordinal)]);
            }
        }
        return text.ToString();
    }

    [Test]
    public async Task StopAsyncLetsTheRequestInProgressBeAnsweredWithConnectionClose()
    {
        using var server = new HoldingServer();
        Assert.That(server.Start(), Is.True);
        var (held, handle) = await HoldOneRequestAsync(server);
        using var client = held;

        var stopping = server.StopAsync();
        Assert.That(stopping.IsCompleted, Is.False, "the drain waits for the answer owed");
        Assert.That(handle.SendResponseAsync(new HttpResponse().MakeGetResponse("late answer")), Is.True, "the answer owed is still taken");

        var received = await Wait.For(ReadToEndAsync(client), "the response, then the end of the stream");
        Assert.That(received, Does.StartWith("HTTP/1.1 200 OK\r\n"));
        Assert.That(received, Does.Contain("\r\nConnection: close\r\n"), "the client is told the connection closes");
        Assert.That(received, Does.EndWith("\r\n\r\nlate answer"), "the body whole");
        // The server's close is graceful: it waits for ours (or its disconnect timeout).
        client.Close();
        Assert.That(await Wait.For(stopping, "StopAsync once the answered connection closed"), Is.True);
    }

    [Test]
    public async Task StopAsyncDoesNotReadARequestPipelinedBehindTheLastAnswer()
    {
        using var server = new HoldingServer();
        Assert.That(server.Start(), Is.True);
        var (held, handle) = await HoldOneRequestAsync(server);
        using var client = held;

        var stopping = server.StopAsync();
        const string pipelined = "GET /now HTTP/1.1\r\nHost: localhost\r\n\r\n";
        var before = server.BytesReceived;
        await SendAsync(client, pipelined);
        // The engine has it (held behind the answer owed) before the answer goes: a reader would now find it.
        await Wait.Until(() => server.BytesReceived >= before + pipelined.Length, "the pipelined request received");
        handle.SendResponseAsync(new HttpResponse().MakeGetResponse("last"));

        var received = await Wait.For(ReadToEndAsync(client), "one response, then the end of the stream");
        Assert.That(received, Does.EndWith("\r\n\r\nlast"), "the answer owed, and nothing after it");
        Assert.That(received.Split("HTTP/1.1 ").Length - 1, Is.EqualTo(1), "one response: " + received);
        client.Close();
        Assert.That(await Wait.For(stopping, "StopAsync"), Is.True);
        Assert.That(server.Requests, Is.EqualTo(1), "the pipelined request never reached the hook");
    }

    [Test]
    public async Task StopAsyncAnswersAHeldStaticFileWithConnectionCloseAndTheSharedBodyWhole()
    {
        var folder = Directory.CreateTempSubdirectory("http-drain-").FullName;
        try
        {
            File.WriteAllText(Path.Combine(folder, "page.txt"), "static body");
            using var server = new HoldingStaticServer(folder);
            Assert.That(server.Start(), Is.True);
            using var client = await ConnectAsync(server.BoundPort);
            await SendAsync(client, "GET /static/page.txt HTTP/1.1\r\nHost: localhost\r\n\r\n");
            var answer = await Wait.For(server.Held.Task, "the cached request reached the hook");

            var stopping = server.StopAsync();
            answer();

            var received = await Wait.For(ReadToEndAsync(client), "the file, then the end of the stream");
            Assert.That(received, Does.StartWith("HTTP/1.1 200 OK\r\n"));
            Assert.That(received, Does.Contain("\r\nConnection: close\r\n\r\n"), "the header, last in the head");
            Assert.That(received, Does.EndWith("\r\n\r\nstatic body"));
            client.Close();
            Assert.That(await Wait.For(stopping, "StopAsync"), Is.True);

            // The prepared bytes are shared by every session: after a restart, the same cached answer has no trace of the drain.
            Assert.That(server.Start(), Is.True);
            using (var second = await ConnectAsync(server.BoundPort))
            {
                await SendAsync(second, "GET /static/page.txt HTTP/1.1\r\nHost: localhost\r\n\r\n");
                Assert.That(await Wait.For(ReadResponseAsync(second), "the answer after the restart"), Does.Not.Contain("Connection: close").And.EndWith("static body"));
            }
            server.Stop();
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Test]
    public async Task StopAsyncDuringAHookThatAnswersReadsNoRequestPipelinedInTheSameRead()
    {
        using var server = new HoldingServer();
        Assert.That(server.Start(), Is.True);
        using var client = await ConnectAsync(server.BoundPort);
        await SendAsync(client, "GET /block HTTP/1.1\r\nHost: localhost\r\n\r\nGET /now HTTP/1.1\r\nHost: localhost\r\n\r\n");
        await Wait.For(server.InHook.Task, "the first request's hook");

        var stopping = server.StopAsync();
        server.Release.Set();

        var received = await Wait.For(ReadToEndAsync(client), "one response, then the end of the stream");
        Assert.That(received, Does.Contain("\r\nConnection: close\r\n").And.EndWith("\r\n\r\nblocked"));
        client.Close();
        Assert.That(await Wait.For(stopping, "StopAsync"), Is.True);
        Assert.That(server.Requests, Is.EqualTo(1), "the request behind the last answer never reached the hook");
    }

    [Test]
    public async Task StopAsyncClosesAnIdleKeepAliveConnectionAtOnce()
    {
        using var server = new HoldingServer();
        Assert.That(server.Start(), Is.True);
        using var client = await ConnectAsync(server.BoundPort);
        await SendAsync(client, "GET /now HTTP/1.1\r\nHost: localhost\r\n\r\n");
        Assert.That(await Wait.For(ReadResponseAsync(client), "the response"), Does.Not.Contain("Connection: close"), "a keep-alive answer");

        var stopping = server.StopAsync();

        Assert.That(await Wait.For(ReadToEndAsync(client), "the end of the stream"), Is.Empty, "nothing more is sent");
        client.Close();
        Assert.That(await Wait.For(stopping, "StopAsync"), Is.True);
        Assert.That(server.ConnectedSessions, Is.EqualTo(0));
    }
}
