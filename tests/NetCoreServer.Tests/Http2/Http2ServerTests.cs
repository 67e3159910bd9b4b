using System;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Http2;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// h2c with prior knowledge on <see cref="HttpServer"/>: a session written for HTTP/1.1 (hooks, SendResponseAsync of
/// Response) serves a client that opens with the HTTP/2 preface, driven frame by frame by <see cref="Http2RawClient"/>.
/// </summary>
[TestFixture]
public sealed class Http2ServerTests : Http2ServerFixture
{
    [Test]
    public async Task PrefaceIsAnsweredWithSettingsAndARequestWithItsResponse()
    {
        using var client = await Connect();
        Assert.That(client.ServerSettings.MaxConcurrentStreams, Is.EqualTo(100));
        Assert.That(client.ServerSettings.InitialWindowSize, Is.EqualTo(Http2Limits.StreamWindow));

        await client.Get(1, "/hello");
        var response = await client.Response(1);

        Assert.That(response.Status, Is.EqualTo(200));
        Assert.That(response.Text, Is.EqualTo("Hello, World!"));
        Assert.That(response.Field("content-length"), Is.EqualTo("13"));
        Assert.That(response.Field("content-type"), Is.EqualTo("text/plain; charset=UTF-8"));
    }

    [Test]
    public async Task HooksSeeMethodUrlHostFieldsAndCookiesAndResponsesLoseConnectionFields()
    {
        using var client = await Connect();
        await client.Get(1, "/headers?q=1", "GET", ("x-custom", "one"), ("cookie", "a=1"), ("cookie", "b=2"));
        var response = await client.Response(1);

        var lines = response.Text.Split('\n');
        Assert.That(lines[0], Is.EqualTo("GET /headers?q=1 HTTP/2"));
        Assert.That(lines, Does.Contain("host: localhost").And.Contain("x-custom: one"));
        Assert.That(lines, Does.Contain("cookie a=1").And.Contain("cookie b=2"));
        Assert.That(response.Fields.Any(f => f.StartsWith("connection", StringComparison.Ordinal) || f.StartsWith("keep-alive", StringComparison.Ordinal)), Is.False,
            "RFC 9113 8.2.2: connection-specific fields are not sent: " + string.Join(", ", response.Fields));
    }

    [Test]
    public async Task RequestBodyLargerThanTheWindowsArrivesWholeAsCreditComesBack()
    {
        using var client = await Connect();
        // Past both windows this side starts with (1 MiB for the connection, 768 KiB for the stream).
        var body = new byte[3 * 1024 * 1024];
        new Random(41).NextBytes(body);
        await client.SendHeaders(1, endStream: false, (":method", "POST"), (":scheme", "http"), (":authority", "localhost"), (":path", "/echo"));
        var connection = Http2Settings.DefaultInitialWindowSize;
        var stream = Http2Limits.StreamWindow;
        var sent = 0;
        while (sent < body.Length)
        {
            var size = Math.Min(Math.Min(16_384, body.Length - sent), Math.Min(connection, stream));
            if (size <= 0)
            {
                var update = await client.ReadUntil(f => f.Type == Http2FrameType.WindowUpdate);
                if (update.StreamId == 0)
                    connection += update.Increment;
                else
                    stream += update.Increment;
                continue;
            }
            var piece = body.AsSpan(sent, size).ToArray();
            await client.SendData(1, piece, endStream: sent + size == body.Length);
            sent += size;
            connection -= size;
            stream -= size;
        }
        var response = await client.Response(1);

        Assert.That(response.Status, Is.EqualTo(200));
        Assert.That(response.Field("x-method"), Is.EqualTo("POST"));
        Assert.That(response.Body, Is.EqualTo(body), "the body came back as sent");
    }

    [Test]
    public async Task ResponseWaitsForThePeersWindowAndKeepsToItsFrameSize()
    {
        using var client = await Connect();
        await client.Get(1, "/big/200000");
        var frames = new System.Collections.Generic.List<Http2ReceivedFrame>();
        var received = 0;
        while (received < Http2Settings.DefaultInitialWindowSize)
        {
            var frame = await client.ReadUntil(f => f.Type == Http2FrameType.Data);
            frames.Add(frame);
            received += frame.Payload.Length;
        }
        Assert.That(received, Is.EqualTo(Http2Settings.DefaultInitialWindowSize), "no byte past the initial window");
        Assert.That(frames.Max(f => f.Payload.Length), Is.LessThanOrEqualTo(Http2Settings.MinMaxFrameSize));
        Assert.That(frames.Any(f => f.EndStream), Is.False);

        // A PING round trip shows nothing more was sent meanwhile.
        await client.Send(b => Http2FrameWriter.WritePing(b, "12345678"u8, ack: false));
        var next = await client.ReadFrame();
        Assert.That(next.Type, Is.EqualTo(Http2FrameType.Ping), "the server waited for window: " + next);

        await client.Send(b => Http2FrameWriter.WriteWindowUpdate(b, 0, 1 << 20));
        await client.Send(b => Http2FrameWriter.WriteWindowUpdate(b, 1, 1 << 20));
        var rest = await client.Response(1);
        Assert.That(received + rest.Body.Length, Is.EqualTo(200_000));
        Assert.That(rest.Body.Select((b, i) => b == Http2TestServer.At(received + i)).All(x => x), Is.True, "the rest follows in order");
    }

    [Test]
    public async Task StreamedBodyWhoseWindowNeverOpensIsReadOnlyAFewChunksAhead()
    {
        using var client = await Connect();
        await client.Get(1, "/produce/8000000");
        // The hooks reach the next stream once /produce's hook returned, and a producer that needs no I/O has run as far
        // as it may by then.
        await client.Get(3, "/hello");
        var skipped = new System.Collections.Generic.List<Http2ReceivedFrame>();
        var hello = await client.Response(3, skipped: skipped, withheld: 1);

        Assert.That(hello.Text, Is.EqualTo("Hello, World!"));
        Assert.That(skipped.Where(f => f.StreamId == 1 && f.Type == Http2FrameType.Data).Sum(f => f.Payload.Length), Is.LessThanOrEqualTo(Http2Settings.DefaultInitialWindowSize));
        Assert.That(Server.Produced, Is.LessThanOrEqualTo(Http2Settings.DefaultInitialWindowSize + 2 * 64 * 1024),
            "a stalled stream's producer stops about a chunk past its window, not a megabyte");
    }

    [Test]
    public async Task StreamsOfOneConnectionReachTheHooksOneAtATimeInOrder()
    {
        using var client = await Connect();
        await client.Get(1, "/late");
        await client.Get(3, "/hello");
        await client.Get(5, "/echo", "PUT");
        await Wait.For(Server.LateArrived.Task, "the /late hook");
        await client.Send(b => Http2FrameWriter.WritePing(b, "abcdefgh"u8, ack: false));
        await client.ReadUntil(f => f.Type == Http2FrameType.Ping && f.Ack);
        Assert.That(Server.Seen, Is.EqualTo(new[] { "GET /late" }), "streams 3 and 5 wait while /late is owed");

        Server.ReleaseLate.SetResult();
        Assert.That((await client.Response(1)).Text, Is.EqualTo("late"));
        Assert.That((await client.Response(3)).Text, Is.EqualTo("Hello, World!"));
        Assert.That((await client.Response(5)).Field("x-method"), Is.EqualTo("PUT"));
        Assert.That(Server.Seen, Is.EqualTo(new[] { "GET /late", "GET /hello", "PUT /echo" }));
        Assert.That(Server.Overlapped, Is.False);
    }

    [Test]
    public async Task ClientResetOfTheOwedStreamFreesTheHooksForTheNext()
    {
        using var client = await Connect();
        await client.Get(1, "/late");
        await Wait.For(Server.LateArrived.Task, "the /late hook");
        await client.Send(b => Http2FrameWriter.WriteRstStream(b, 1, Http2ErrorCode.Cancel));
        await client.Get(3, "/hello");

        Assert.That((await client.Response(3)).Text, Is.EqualTo("Hello, World!"));
        Server.ReleaseLate.SetResult();
    }

    [Test]
    public async Task PingIsAcknowledgedWithItsBytes()
    {
        using var client = await Connect();
        await client.Send(b => Http2FrameWriter.WritePing(b, "pingpong"u8, ack: false));
        var ack = await client.ReadUntil(f => f.Type == Http2FrameType.Ping);
        Assert.That(ack.Ack, Is.True);
        Assert.That(Encoding.ASCII.GetString(ack.Payload), Is.EqualTo("pingpong"));
    }

    [Test]
    public async Task ClientSettingsAreAcknowledgedAndApplied()
    {
        using var client = await Connect();
        await client.Send(b => Http2FrameWriter.WriteSettings(b, [(Http2SettingId.InitialWindowSize, 10), (Http2SettingId.HeaderTableSize, 0)]));
        Assert.That((await client.ReadUntil(f => f.Type == Http2FrameType.Settings)).Ack, Is.True);
        await client.Get(1, "/big/100");
        var first = await client.ReadUntil(f => f.Type == Http2FrameType.Data);
        Assert.That(first.Payload.Length, Is.EqualTo(10), "the stream window is the client's new initial size");
    }

    [Test]
    public async Task DeclaredBodySentInPiecesAndHandleAnswersReachTheirStreams()
    {
        using var client = await Connect();
        await client.Get(1, "/declared/10");
        var declared = await client.Response(1);
        Assert.That(declared.Text, Is.EqualTo("xxxxxyyyyy"));

        await client.Get(3, "/handle");
        Assert.That((await client.Response(3)).Text, Is.EqualTo("by handle 2"));
    }

    [Test]
    public async Task HeadRequestGetsTheHeadOnly()
    {
        using var client = await Connect();
        await client.Get(1, "/hello", "HEAD");
        var response = await client.Response(1);
        Assert.That(response.Status, Is.EqualTo(200));
        Assert.That(response.Field("content-length"), Is.EqualTo("13"));
        Assert.That(response.Body, Is.Empty);
    }

    [Test]
    public async Task TrailersEndTheRequest()
    {
        using var client = await Connect();
        await client.SendHeaders(1, endStream: false, (":method", "POST"), (":scheme", "http"), (":authority", "localhost"), (":path", "/echo"));
        await client.SendData(1, "abc"u8.ToArray(), endStream: false);
        await client.SendHeaders(1, endStream: true, ("x-checksum", "1"));
        Assert.That((await client.Response(1)).Text, Is.EqualTo("abc"));
    }

    [Test]
    public async Task MalformedRequestIsResetAndTheConnectionGoesOn()
    {
        using var client = await Connect();
        await client.SendHeaders(1, endStream: true, (":method", "GET"), (":scheme", "http"), (":path", "/hello"), ("X-Upper", "1"));
        Assert.That(await client.ResetOf(1), Is.EqualTo(Http2ErrorCode.ProtocolError));
        await client.SendHeaders(3, endStream: true, (":method", "GET"), (":scheme", "http"), (":path", "/hello"), ("connection", "close"));
        Assert.That(await client.ResetOf(3), Is.EqualTo(Http2ErrorCode.ProtocolError));
        await client.SendHeaders(5, endStream: true, (":method", "GET"), (":path", "/hello"));
        Assert.That(await client.ResetOf(5), Is.EqualTo(Http2ErrorCode.ProtocolError), "no :scheme");
        await client.Get(7, "/hello");
        Assert.That((await client.Response(7)).Status, Is.EqualTo(200));
    }

    [Test]
    public async Task EvenStreamIsAConnectionErrorWithGoAway()
    {
        using var client = await Connect();
        await client.Get(2, "/hello");
        Assert.That(await client.GoAway(), Is.EqualTo(Http2ErrorCode.ProtocolError));
        await client.Closed();
    }

    [Test]
    public async Task Http11ClientOnTheSameServerIsServedAsBefore()
    {
        using var peer = await RawPeer.ConnectAsync(Server.Endpoint);
        await peer.Socket.SendAsync("GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n"u8.ToArray(), SocketFlags.None);
        var buffer = new byte[4096];
        var text = "";
        while (!text.EndsWith("Hello, World!", StringComparison.Ordinal))
        {
            var n = await Wait.For(peer.Socket.ReceiveAsync(buffer, SocketFlags.None), "the HTTP/1.1 response");
            Assert.That(n, Is.GreaterThan(0), "closed before the response: " + text);
            text += Encoding.ASCII.GetString(buffer, 0, n);
        }
        Assert.That(text, Does.StartWith("HTTP/1.1 200 OK\r\n"));
    }

    [Test]
    public async Task PrefaceGets505WhenHttp2IsTurnedOff()
    {
        Server.Http.Http2Enabled = false;
        using var peer = await RawPeer.ConnectAsync(Server.Endpoint);
        await peer.Socket.SendAsync(Http2Preface.Client.ToArray(), SocketFlags.None);
        var buffer = new byte[4096];
        var n = await Wait.For(peer.Socket.ReceiveAsync(buffer, SocketFlags.None), "the answer to the preface");
        Assert.That(Encoding.ASCII.GetString(buffer, 0, n), Does.StartWith("HTTP/1.1 505 "));
    }

    [Test]
    public async Task UnixSocketServerSpeaksH2cToo()
    {
        var path = Path.Combine(Path.GetTempPath(), "h2-" + Guid.NewGuid().ToString("N")[..12] + ".sock");
        using var server = new Http2TestServer(new UnixDomainSocketEndPoint(path));
        server.Start();
        using var client = await Http2RawClient.ConnectAsync(new UnixDomainSocketEndPoint(path));
        await client.Get(1, "/hello");
        Assert.That((await client.Response(1)).Text, Is.EqualTo("Hello, World!"));
    }

    [Test]
    public async Task RequestNotAnsweredInTimeGets503AndTheNextIsServed()
    {
        var clock = new Microsoft.Extensions.Time.Testing.FakeTimeProvider();
        using var server = new Http2TestServer { OptionTimeProvider = clock };
        server.Http.ResponseTimeout = TimeSpan.FromSeconds(10);
        server.Start();
        using var client = await Http2RawClient.ConnectAsync(server.Endpoint);
        await client.Get(1, "/late");
        await client.Get(3, "/hello");
        await Wait.For(server.LateArrived.Task, "the /late hook");

        var answer = client.Response(1);
        clock.Advance(TimeSpan.FromSeconds(11));
        var timedOut = await answer;
        Assert.That(timedOut.Status, Is.EqualTo(503));
        Assert.That((await client.Response(3)).Text, Is.EqualTo("Hello, World!"), "the connection goes on");
        server.ReleaseLate.SetResult();
    }

    [Test]
    public async Task RequestDurationIsRecordedWithProtocolVersion2()
    {
        using var metrics = new MetricRecorder();
        using var server = new Http2TestServer { OptionMeterFactory = metrics };
        server.Start();
        using var client = await Http2RawClient.ConnectAsync(server.Endpoint);
        await client.Get(1, "/hello");
        await client.Response(1);

        var recorded = await Wait.For(metrics.Next("http.server.request.duration"), "the request recorded");
        Assert.That(recorded.Tag("network.protocol.version"), Is.EqualTo("2"));
        Assert.That(recorded.Tag("http.request.method"), Is.EqualTo("GET"));
        Assert.That(recorded.Tag("http.response.status_code"), Is.EqualTo("200"));
    }

    [Test]
    public async Task HookThatThrowsOffTheReceiveLoopReachesOnHandlerExceptionAndCloses()
    {
        using var client = await Connect();
        await client.Get(1, "/late");
        await client.Get(3, "/throw");
        await Wait.For(Server.LateArrived.Task, "the /late hook");
        // /late is answered from another thread: /throw then runs on the thread pool.
        Server.ReleaseLate.SetResult();

        var exception = await Wait.For(Server.HandlerException.Task, "OnHandlerException");
        Assert.That(exception.Message, Is.EqualTo("thrown by the hook"));
        await client.Closed();
    }

    [Test]
    public async Task StopAsyncSendsGoAwayAndLetsTheStreamsUnderWayFinish()
    {
        using var client = await Connect();
        await client.Get(1, "/late");
        await Wait.For(Server.LateArrived.Task, "the /late hook");

        var stopping = Server.StopAsync();
        var goAway = await client.ReadUntil(f => f.Type == Http2FrameType.GoAway);
        Assert.That((goAway.ErrorCode, goAway.LastStreamId), Is.EqualTo((Http2ErrorCode.NoError, 1)));
        await client.Get(3, "/hello");
        Assert.That(await client.ResetOf(3), Is.EqualTo(Http2ErrorCode.RefusedStream), "no new stream after GOAWAY");

        Server.ReleaseLate.SetResult();
        Assert.That((await client.Response(1)).Text, Is.EqualTo("late"), "the stream under way finished");
        await client.Closed();
        Assert.That(await Wait.For(stopping, "StopAsync"), Is.True);
    }

    [Test]
    public async Task RequestWhoseHandleIsTakenFreesTheHooksForTheNextStream()
    {
        using var client = await Connect();
        await client.Get(1, "/detached");
        await client.Get(3, "/hello");

        Assert.That((await client.Response(3)).Text, Is.EqualTo("Hello, World!"), "served while stream 1 waits for its handle");
        Server.ReleaseLate.SetResult();
        Assert.That((await client.Response(1)).Text, Is.EqualTo("detached 1"));
        Assert.That(Server.Seen, Is.EqualTo(new[] { "GET /detached", "GET /hello" }));
        Assert.That(Server.Overlapped, Is.False, "the hooks still ran one at a time");
    }
}

