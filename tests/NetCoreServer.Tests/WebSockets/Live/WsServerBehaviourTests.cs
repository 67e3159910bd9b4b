using System;
using System.Collections.Concurrent;
using System.Linq;
using System.Net;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Time.Testing;
using NetCoreServer.Engine;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.WebSockets.Live;

/// <summary>The upgrade, the hooks and the server-wide sends, over WS and WSS.</summary>
[TestFixture(WsTransport.Ws)]
[TestFixture(WsTransport.Wss)]
[TestFixture(WsTransport.WsPool)]
[TestFixture(WsTransport.WssPool)]
public sealed class WsServerBehaviourTests(WsTransport transport)
{
    [Test]
    public async Task TheSessionsHooksRunInNetCoreServersOrder()
    {
        using var server = new WsTestServer(transport);
        using var client = new WsTestClient(transport, server.Port);
        Assert.That(client.ConnectAsync(), Is.True);
        var peer = await Wait.For(client.Probe.Upgraded.Task, "the client's OnWsConnected");
        peer.SendTextAsync("x"u8);
        await Wait.For(client.Probe.Messages.Reader.ReadAsync().AsTask(), "the echo");
        peer.CloseAsync(1000, "");
        await Wait.For(server.Probe.Disconnected.Task, "the session's OnDisconnected");

        Assert.That(server.Probe.Log, Is.EqualTo(new[]
        {
            "OnConnected", "OnReceivedRequestHeader", "OnWsConnecting", "OnWsConnected", "OnWsReceived", "OnWsClose",
            "OnWsDisconnecting", "OnDisconnecting", "OnWsDisconnected", "OnDisconnected",
        }));
    }

    [Test]
    public async Task RefusingInOnWsConnectingAnswersTheClientWithAnHttpStatus()
    {
        using var server = new WsTestServer(transport);
        server.Probe.Connecting = (request, response) =>
        {
            response.MakeErrorResponse(401, "who are you?");
            return false;
        };
        using var raw = await RawWsClient.ConnectAsync(transport, server.Port);
        await raw.SendAsync(Encoding.ASCII.GetBytes(RawWsClient.UpgradeRequest()));

        var head = await raw.ReadHeadAsync();
        Assert.That(head, Does.StartWith("HTTP/1.1 401"));
        Assert.That(await raw.ReadToEndAsync(), Is.EqualTo("who are you?"), "the body, then the server closes");

        server.Probe.Connecting = (_, _) => false;
        using var client = new WsTestClient(transport, server.Port);
        Assert.That(client.ConnectAsync(), Is.True);
        Assert.That(await Wait.For(client.Probe.Error.Task, "the client's OnWsError"), Does.Contain("403"));
        await Wait.For(client.Probe.Disconnected.Task, "the client's OnDisconnected");
        Assert.That(client.Response().Status, Is.EqualTo(403), "the refusal is readable in Response");
        Assert.That(client.Probe.Upgraded.Task.IsCompleted, Is.False, "no OnWsConnected");
    }

    [TestCase("Sec-WebSocket-Version: 8\r\n", 426)]
    [TestCase("", 400)]
    public async Task AnInvalidUpgradeIsAnsweredWithItsStatusAndClosed(string version, int status)
    {
        using var server = new WsTestServer(transport);
        using var raw = await RawWsClient.ConnectAsync(transport, server.Port);
        var request = version.Length > 0
            ? RawWsClient.UpgradeRequest().Replace("Sec-WebSocket-Version: 13\r\n", version)
            : RawWsClient.UpgradeRequest().Replace($"Sec-WebSocket-Key: {RawWsClient.Key}\r\n", "");
        await raw.SendAsync(Encoding.ASCII.GetBytes(request));

        var head = await raw.ReadHeadAsync();
        Assert.That(head, Does.StartWith($"HTTP/1.1 {status}"));
        if (status == 426)
            Assert.That(head, Does.Contain("Sec-WebSocket-Version: 13"));
        Assert.That(await raw.ServerClosedAsync(), Is.True);
        Assert.That(await Wait.For(server.Probe.Error.Task, "the session's OnWsError"), Is.Not.Empty);
    }

    [Test]
    public async Task AnOrdinaryHttpRequestIsStillServed()
    {
        using var server = new WsTestServer(transport);
        using var raw = await RawWsClient.ConnectAsync(transport, server.Port);
        await raw.SendAsync("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"u8.ToArray());

        Assert.That(await raw.ReadHeadAsync(), Does.StartWith("HTTP/1.1 200"));
        Assert.That(await raw.ReadToEndAsync(), Is.EqualTo("plain HTTP"));
    }

    [Test]
    public async Task FramesSentRightAfterTheUpgradeRequestReachTheFramer()
    {
        using var server = new WsTestServer(transport);
        var pipelined = WsTestFrames.Concat(WsCase.Text("first"), WsCase.F(0x89, "p"u8.ToArray()), WsCase.Text("second"));
        using var raw = await RawWsClient.UpgradeAsync(transport, server.Port, after: pipelined);

        Assert.That((await raw.ReadFrameAsync())!.Value.Text, Is.EqualTo("first"));
        Assert.That((await raw.ReadFrameAsync())!.Value.Opcode, Is.EqualTo(0xA));
        Assert.That((await raw.ReadFrameAsync())!.Value.Text, Is.EqualTo("second"));
    }

    [Test]
    public async Task ARequestNobodyAnswersGets503NotTheAnswerOfARequestBehindIt()
    {
        using var server = new WsTestServer(transport, http: http => http.ResponseTimeout = TimeSpan.FromMilliseconds(300));
        using var raw = await RawWsClient.ConnectAsync(transport, server.Port);
        await raw.SendAsync(Encoding.ASCII.GetBytes("GET /never HTTP/1.1\r\nHost: x\r\n\r\nGET /page HTTP/1.1\r\nHost: x\r\n\r\n"));

        Assert.That(await raw.ReadHeadAsync(), Does.StartWith("HTTP/1.1 503 ").And.Contain("Connection: close"), "/never gets a 503, not /page's answer");
        Assert.That(await raw.ReadToEndAsync(), Does.Not.Contain("plain HTTP"), "/page is never answered in its place");
    }

    [Test]
    public async Task AnUpgradePipelinedBehindALateAnswerIsSwitchedAfterIt()
    {
        using var server = new WsTestServer(transport);
        using var raw = await RawWsClient.ConnectAsync(transport, server.Port);
        var hello = WsTestFrames.Frame(0x81, "hello"u8.ToArray(), RawWsClient.Mask());
        await raw.SendAsync(WsTestFrames.Concat(Encoding.ASCII.GetBytes("GET /late HTTP/1.1\r\nHost: x\r\n\r\n" + RawWsClient.UpgradeRequest()), hello));

        Assert.That(await raw.ReadHeadAsync(), Does.StartWith("HTTP/1.1 200 "), "/late's answer first");
        Assert.That(await raw.ReadHeadAsync(), Does.StartWith("HTTP/1.1 101 "), "then the switch");
        Assert.That((await raw.ReadFrameAsync())?.Text, Is.EqualTo("hello"), "then the WebSocket echo");
    }

    [Test]
    public async Task AClientTooSlowToSendItsUpgradeRequestIsClosed()
    {
        using var server = new WsTestServer(transport, http: http => http.HeaderTimeout = TimeSpan.FromMilliseconds(300));
        using var raw = await RawWsClient.ConnectAsync(transport, server.Port);
        await raw.SendAsync("GET /chat HTTP/1.1\r\nHost: loc"u8.ToArray());

        Assert.That(await raw.ReadHeadAsync(), Does.StartWith("HTTP/1.1 408"));
        Assert.That(await raw.ServerClosedAsync(), Is.True);
    }

    [Test]
    public async Task AClientWhoseServerNeverAnswersTheUpgradeGivesUpAfterTheHandshakeTimeout()
    {
        using var silent = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
        silent.Start();
        var port = ((IPEndPoint)silent.LocalEndpoint).Port;
        using var client = new WsTestClient(WsTransport.Ws, port, options => options.HandshakeTimeout = TimeSpan.FromMilliseconds(300));
        Assert.That(client.ConnectAsync(), Is.True);
        using var accepted = await silent.AcceptSocketAsync();

        Assert.That(await Wait.For(client.Probe.Error.Task, "the client's OnWsError"), Does.Contain("not answered"));
        await Wait.For(client.Probe.Disconnected.Task, "the client's OnDisconnected");
    }

    [Test]
    public async Task AClientOnAFakeClockGivesUpOnTheUpgradeOnlyWhenItsClockPassesTheHandshakeTimeout()
    {
        var clock = new FakeTimeProvider();
        using var silent = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0);
        silent.Start();
        var port = ((IPEndPoint)silent.LocalEndpoint).Port;
        using var client = new WsTestClient(WsTransport.Ws, port, options => options.HandshakeTimeout = TimeSpan.FromSeconds(30));
        client.Client.OptionTimeProvider = clock;
        Assert.That(client.ConnectAsync(), Is.True);
        using var accepted = await silent.AcceptSocketAsync();
        // The request goes out after the handshake clock is armed: once it arrives, the clock runs.
        var buffer = new byte[4096];
        Assert.That(await Wait.For(accepted.ReceiveAsync(buffer.AsMemory()).AsTask(), "the upgrade request"), Is.GreaterThan(0));

        clock.Advance(TimeSpan.FromSeconds(29));
        Assert.That(client.Probe.Error.Task.IsCompleted, Is.False, "29 s of the client's 30: still waiting");
        clock.Advance(TimeSpan.FromSeconds(1) + TimerWheel.DefaultResolution);

        Assert.That(await Wait.For(client.Probe.Error.Task, "the client's OnWsError"), Does.Contain("not answered"));
        await Wait.For(client.Probe.Disconnected.Task, "the client's OnDisconnected");
    }

    [Test]
    public async Task ConcurrentSendsFromEightThreadsNeverInterleaveFrames()
    {
        using var server = new WsTestServer(transport);
        server.Probe.Echo = WsEcho.None;
        using var client = new WsTestClient(transport, server.Port);
        Assert.That(client.ConnectAsync(), Is.True);
        var peer = await Wait.For(client.Probe.Upgraded.Task, "the client's OnWsConnected");
        var session = await Wait.For(server.Probe.Upgraded.Task, "the session's OnWsConnected");
        const int threads = 8, each = 200;

        // Messages of varied sizes (some over 64 KiB, so they need several socket writes) from 8 threads at once, both ways.
        var senders = Enumerable.Range(0, threads).Select(t => Task.Run(() =>
        {
            for (var i = 0; i < each; i++)
            {
                var message = Encoding.UTF8.GetBytes($"{t}:{i}:" + new string((char)('a' + t), i % 7 == 0 ? 70000 : i));
                if (i % 2 == 0)
                    session.SendText(message);
                else
                    session.SendTextAsync(message);
                peer.SendTextAsync(message);
            }
        })).ToArray();
        await Wait.For(Task.WhenAll(senders), "the senders");

        foreach (var probe in new[] { client.Probe, server.Probe })
        {
            var next = new int[threads];
            for (var n = 0; n < threads * each; n++)
            {
                var text = Encoding.UTF8.GetString(await Wait.For(probe.Messages.Reader.ReadAsync().AsTask(), $"message {n}"));
                var parts = text.Split(':', 3);
                int t = int.Parse(parts[0]), i = int.Parse(parts[1]);
                Assert.That(i, Is.EqualTo(next[t]++), "each thread's messages arrive in its order");
                Assert.That(parts[2], Is.EqualTo(new string((char)('a' + t), i % 7 == 0 ? 70000 : i)), "a whole message, no other frame inside it");
            }
        }
    }

    [Test]
    public async Task AClientThatDoesNotReadMulticastsGetsOnSlowConsumerAndNoOnErrorByDefault()
    {
        using var server = new WsTestServer(transport);
        using var raw = await RawWsClient.UpgradeAsync(transport, server.Port);
        await Wait.For(server.Probe.AllUpgraded.Task, "the session upgraded");
        var message = new byte[64 * 1024];
        for (var i = 0; i < 768; i++)
            Assert.That(server.MulticastBinary(message), Is.True);

        var log = server.Probe.Log;
        Assert.That(server.Probe.SocketErrors, Is.Empty, "no OnError: the user set no send limit (NetCoreServer's multicast servers printed one per episode)");
        Assert.That(log.Count(e => e == "OnSlowConsumer"), Is.InRange(1, 20), $"OnSlowConsumer once per episode: [{string.Join(", ", log)}]");
        Assert.That(server.SlowConsumerEpisodes(), Is.EqualTo(log.Count(e => e == "OnSlowConsumer")), "the server counts each episode");
        Assert.That(server.SkippedMulticasts(), Is.GreaterThan(0), "and each skipped message");
        Assert.That(log, Does.Not.Contain("OnDisconnected"), "skipping keeps the session");
    }

    [Test]
    public async Task MulticastReachesEveryUpgradedSessionWithTheSameBytes()
    {
        using var server = new WsTestServer(transport);
        server.Probe.ExpectedSessions = 5;
        var raws = await Task.WhenAll(Enumerable.Range(0, 5).Select(_ => RawWsClient.UpgradeAsync(transport, server.Port)));
        using var plain = await RawWsClient.ConnectAsync(transport, server.Port);
        try
        {
            // A client reads its 101 a moment before its session's OnWsConnected returns: wait for all five.
            await Wait.For(server.Probe.AllUpgraded.Task, "five sessions upgraded");
            var big = Enumerable.Range(0, 5000).Select(i => (byte)i).ToArray();

            Assert.That(server.MulticastText("to everyone"), Is.True);
            Assert.That(server.MulticastBinary(big), Is.True);
            Assert.That(server.MulticastPing("ping!"u8.ToArray()), Is.True);
            Assert.That(server.MulticastPing(new byte[126]), Is.False, "a ping over 125 bytes is refused");

            foreach (var raw in raws)
            {
                var text = (await raw.ReadFrameAsync())!.Value;
                Assert.That((text.First, text.Text), Is.EqualTo(((byte)0x81, "to everyone")));
                var binary = (await raw.ReadFrameAsync())!.Value;
                Assert.That((binary.First, binary.Payload), Is.EqualTo(((byte)0x82, big)));
                var ping = (await raw.ReadFrameAsync())!.Value;
                Assert.That((ping.First, ping.Text), Is.EqualTo(((byte)0x89, "ping!")));
            }
            await plain.SendAsync("GET / HTTP/1.1\r\nHost: x\r\n\r\n"u8.ToArray());
            Assert.That(await plain.ReadHeadAsync(), Does.StartWith("HTTP/1.1 200"), "a plain HTTP connection got no frame before its answer");
        }
        finally
        {
            foreach (var raw in raws)
                raw.Dispose();
        }
    }

    [Test]
    public async Task CloseAllSendsOneCloseFrameToEverySessionAndClosesThemWhenAnswered()
    {
        using var server = new WsTestServer(transport);
        server.Probe.ExpectedSessions = 3;
        var raws = await Task.WhenAll(Enumerable.Range(0, 3).Select(_ => RawWsClient.UpgradeAsync(transport, server.Port)));
        await Wait.For(server.Probe.AllUpgraded.Task, "three sessions upgraded");

        Assert.That(server.CloseAll(1001, "server restart"), Is.True);

        foreach (var raw in raws)
        {
            var close = (await raw.ReadFrameAsync())!.Value;
            Assert.That((close.Opcode, close.CloseStatus, close.CloseReason), Is.EqualTo((0x8, 1001, "server restart")));
            await raw.SendAsync(WsCase.Close(1001));
            Assert.That(await raw.ServerClosedAsync(), Is.True, "closed once the client answered");
            raw.Dispose();
        }
    }

    [Test]
    public async Task ASessionWhoseClientNeverAnswersTheCloseIsDroppedAfterTheCloseTimeout()
    {
        using var server = new WsTestServer(transport, options => options.CloseTimeout = TimeSpan.FromMilliseconds(300));
        using var raw = await RawWsClient.UpgradeAsync(transport, server.Port);
        var session = await Wait.For(server.Probe.Upgraded.Task, "the session's OnWsConnected");

        session.CloseAsync(1000, "bye");

        Assert.That((await raw.ReadFrameAsync())!.Value.CloseStatus, Is.EqualTo(1000));
        Assert.That(await raw.ServerClosedAsync(), Is.True, "dropped without an answer");
        await Wait.For(server.Probe.Disconnected.Task, "the session's OnDisconnected");
        Assert.That(session.SendTextAsync("late"u8), Is.False, "nothing is sent after a close frame");
    }

    [Test]
    public async Task KeepAlivePingsAnIdleClientAndDropsOneThatNeverAnswers()
    {
        using var server = new WsTestServer(transport, options => options.KeepAliveInterval = TimeSpan.FromMilliseconds(200));
        using var raw = await RawWsClient.UpgradeAsync(transport, server.Port);

        var ping = (await raw.ReadFrameAsync())!.Value;
        Assert.That(ping.Opcode, Is.EqualTo(0x9), "a ping after the idle interval");
        var close = (await raw.ReadFrameAsync())!.Value;
        Assert.That(close.CloseStatus, Is.EqualTo(1001), "then a close, the pong never came");
        Assert.That(await raw.ServerClosedAsync(), Is.True);
        Assert.That(await Wait.For(server.Probe.Error.Task, "OnWsError"), Does.Contain("keep-alive"));
    }

    [Test]
    public async Task AMessageLeftUnfinishedIsClosedWith1008AfterTheMessageTimeout()
    {
        // Issue 35: a first fragment never followed by the last one held its buffer (up to 16 MiB) for as long as the peer stayed.
        var clock = new FakeTimeProvider();
        using var server = new WsTestServer(transport, options => options.MessageTimeout = TimeSpan.FromMilliseconds(300), time: clock);
        using var raw = await RawWsClient.UpgradeAsync(transport, server.Port);

        await raw.SendFrameAsync(0x01, WsTestFrames.Utf8("the first half of a message that never ends"));
        await PingPongTwice(raw);
        clock.Advance(TimeSpan.FromMilliseconds(299));
        await raw.SendFrameAsync(0x89, WsTestFrames.Utf8("before the timeout"));
        Assert.That((await raw.ReadFrameAsync())!.Value.Opcode, Is.EqualTo(0xA), "a pong 299 ms into the message, not yet a close");
        clock.Advance(TimeSpan.FromMilliseconds(1) + TimerWheel.DefaultResolution);

        var close = await raw.ReadFrameAsync();
        Assert.That(close, Is.Not.Null, "a close frame before the connection ends");
        Assert.That(close!.Value.Opcode, Is.EqualTo(0x8));
        Assert.That(close.Value.CloseStatus, Is.EqualTo(1008), "policy violation: the message took too long");
        await raw.SendFrameAsync(0x88, [0x03, 0xF0]);
        Assert.That(await raw.ServerClosedAsync(), Is.True);
        // The client's end of TCP too: the server's disconnect then waits for nothing on its (fake) clock.
        raw.Dispose();
        Assert.That(await Wait.For(server.Probe.Error.Task, "OnWsError"), Does.Contain("message timeout"));
        await Wait.For(server.Probe.Disconnected.Task, "the session's OnDisconnected");
    }

    [Test]
    public async Task AMessageFinishedWithinTheMessageTimeoutIsDeliveredAndTheClockStopsWithIt()
    {
        var clock = new FakeTimeProvider();
        using var server = new WsTestServer(transport, options => options.MessageTimeout = TimeSpan.FromMilliseconds(300), time: clock);
        using var raw = await RawWsClient.UpgradeAsync(transport, server.Port);

        await raw.SendFrameAsync(0x01, WsTestFrames.Utf8("one "));
        await raw.SendFrameAsync(0x80, WsTestFrames.Utf8("message"));

        var echo = await raw.ReadFrameAsync();
        Assert.That(echo!.Value.Text, Is.EqualTo("one message"), "the probe echoes what it receives");
        await PingPongTwice(raw);
        // A ping answered well after the timeout would have run out shows the connection was left open.
        clock.Advance(TimeSpan.FromMilliseconds(600));
        await raw.SendFrameAsync(0x89, WsTestFrames.Utf8("still there?"));
        var pong = await raw.ReadFrameAsync();
        Assert.That(pong!.Value.Opcode, Is.EqualTo(0xA), "a pong, not a close");
    }

    [TestCase(true)]
    [TestCase(false)]
    public async Task PermessageDeflateIsUsedOnlyWhenBothSidesEnableIt(bool enabled)
    {
        using var server = new WsTestServer(transport, options => options.Deflate = enabled);
        using var client = new WsTestClient(transport, server.Port, options => options.Deflate = true);
        Assert.That(client.ConnectAsync(), Is.True);
        var peer = await Wait.For(client.Probe.Upgraded.Task, "the client's OnWsConnected");
        var message = Encoding.UTF8.GetBytes(string.Concat(Enumerable.Repeat("compress me ", 1000)));

        peer.SendTextAsync(message);

        Assert.That(await Wait.For(client.Probe.Messages.Reader.ReadAsync().AsTask(), "the echo"), Is.EqualTo(message));
        var extensions = client.Response().Header(Enumerable.Range(0, (int)client.Response().Headers).FirstOrDefault(i => client.Response().Header(i).Item1 == "Sec-WebSocket-Extensions"));
        if (enabled)
        {
            Assert.That(extensions, Is.EqualTo(("Sec-WebSocket-Extensions", "permessage-deflate")));
            Assert.That(client.Client.BytesSent, Is.LessThan(message.Length), "the message went compressed");
        }
        else
        {
            Assert.That(client.Response().Headers, Is.GreaterThan(0));
            Assert.That(Enumerable.Range(0, (int)client.Response().Headers).Select(i => client.Response().Header(i).Item1), Has.No.Member("Sec-WebSocket-Extensions"));
            Assert.That(client.Client.BytesSent, Is.GreaterThan(message.Length), "the message went as it is");
        }
    }

    [Test]
    public async Task TheSynchronousConnectUpgradesAndReceiveTextReadsWholeMessages()
    {
        using var server = new WsTestServer(transport);
        server.Probe.OnUpgraded = session => session.SendTextAsync("welcome"u8);
        using var client = new WsTestClient(transport, server.Port);

        var connected = await Task.Run(client.Connect);

        Assert.That(connected, Is.True);
        Assert.That(await Task.Run(client.ReceiveText), Is.EqualTo("welcome"), "the greeting that came right behind the 101");
        client.Peer.SendText("echo me"u8);
        Assert.That(await Task.Run(client.ReceiveText), Is.EqualTo("echo me"));
    }

    [Test]
    public async Task TheClientsDefaultRequestOffersSubprotocolsAndTheServerChoosesOne()
    {
        using var server = new WsTestServer(transport, options => options.SelectSubprotocol = offered => offered.Contains("v2.chat") ? "v2.chat" : null);
        using var client = new WsTestClient(transport, server.Port, options =>
        {
            options.Subprotocols.Add("v1.chat");
            options.Subprotocols.Add("v2.chat");
        });
        Assert.That(client.ConnectAsync(), Is.True);

        var peer = await Wait.For(client.Probe.Upgraded.Task, "the client's OnWsConnected");
        var session = await Wait.For(server.Probe.Upgraded.Task, "the session's OnWsConnected");
        Assert.That((peer.WsSubprotocol, session.WsSubprotocol), Is.EqualTo(("v2.chat", "v2.chat")));
    }

    /// <summary>
    /// Two ping round trips: the second ping goes out after the first pong, so it is decoded in a later read than
    /// everything sent before it, and the server has finished with those reads (its message clock included).
    /// </summary>
    private static async Task PingPongTwice(RawWsClient raw)
    {
        for (var i = 0; i < 2; i++)
        {
            await raw.SendFrameAsync(0x89, WsTestFrames.Utf8("sync"));
            Assert.That((await raw.ReadFrameAsync())!.Value.Opcode, Is.EqualTo(0xA), "a pong");
        }
    }
}
