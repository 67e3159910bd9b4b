using System;
using System.Net;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NUnit.Framework;
using NetCoreServer.Transports;

namespace NetCoreServer.Tests.WebSockets.Live;

/// <summary>
/// Frames a session sends from OnWsReceived are handed to the socket together once the read they answer has been
/// decoded (one write, one TLS record, for many messages). What a user can see of that: fewer writes, and nothing
/// else: the order of frames on the wire is the order of the sends (also with blocking sends, multicasts and a
/// Disconnect from the hook), and a send from another thread never waits for the hook to return.
/// </summary>
[TestFixture]
public sealed class WsHeldFramesTests
{
    [Test]
    public async Task FiftyMessagesArrivingInOneWriteAreEchoedInOrderWithFewWrites()
    {
        using var server = new HookServer((session, text) => session.SendTextAsync(text));
        using var raw = await RawWsClient.UpgradeAsync(WsTransport.Ws, server.BoundPort);
        var frames = new byte[50][];
        for (var i = 0; i < frames.Length; i++)
            frames[i] = WsTestFrames.Frame(0x81, WsTestFrames.Utf8($"message {i}"), RawWsClient.Mask());
        var sendsBefore = Volatile.Read(ref server.Sends);
        await raw.SendAsync(WsTestFrames.Concat(frames));

        for (var i = 0; i < frames.Length; i++)
            Assert.That((await Wait.For(raw.ReadFrameAsync(), $"echo {i}"))?.Text, Is.EqualTo($"message {i}"));
        var writes = Volatile.Read(ref server.Sends) - sendsBefore;
        TestContext.Out.WriteLine($"50 echoes went out in {writes} socket writes");
        Assert.That(writes, Is.LessThan(10), "the echoes of one read share a write (one per message before)");
    }

    [Test]
    public async Task FramesAHookSendsBeforeItDisconnectsReachThePeerBeforeTheConnectionCloses()
    {
        using var server = new HookServer((session, text) =>
        {
            session.SendTextAsync("one");
            session.SendTextAsync("two");
            session.Disconnect();
        });
        using var raw = await RawWsClient.UpgradeAsync(WsTransport.Ws, server.BoundPort);
        await raw.SendFrameAsync(0x81, WsTestFrames.Utf8("bye"));

        Assert.That((await Wait.For(raw.ReadFrameAsync(), "the first reply"))?.Text, Is.EqualTo("one"));
        Assert.That((await Wait.For(raw.ReadFrameAsync(), "the second reply"))?.Text, Is.EqualTo("two"));
        Assert.That(await raw.ServerClosedAsync(), Is.True);
    }

    [Test]
    public async Task BlockingSendsAndMulticastsFromAHookKeepTheOrderOfTheSends()
    {
        HookServer? owner = null;
        using var server = new HookServer((session, text) =>
        {
            session.SendTextAsync("first");
            session.SendText("second");
            session.SendTextAsync("third");
            owner!.MulticastText("fourth");
            session.SendTextAsync("fifth");
        });
        owner = server;
        using var raw = await RawWsClient.UpgradeAsync(WsTransport.Ws, server.BoundPort);
        await raw.SendFrameAsync(0x81, WsTestFrames.Utf8("go"));

        foreach (var expected in new[] { "first", "second", "third", "fourth", "fifth" })
            Assert.That((await Wait.For(raw.ReadFrameAsync(), $"'{expected}'"))?.Text, Is.EqualTo(expected));
    }

    [Test]
    public async Task ASendFromAnotherThreadWhileAHookRunsIsNotHeldForTheHook()
    {
        var hookRunning = new TaskCompletionSource<WsSession>(TaskCreationOptions.RunContinuationsAsynchronously);
        var release = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var server = new HookServer((session, text) =>
        {
            session.SendTextAsync("from the hook");
            hookRunning.TrySetResult(session);
            // Bounded: the test releases the hook once the other thread's frame has arrived.
            release.Task.Wait(Wait.Default);
        });
        using var raw = await RawWsClient.UpgradeAsync(WsTransport.Ws, server.BoundPort);
        await raw.SendFrameAsync(0x81, WsTestFrames.Utf8("hold on"));
        var session = await Wait.For(hookRunning.Task, "the hook running");

        session.SendTextAsync("from another thread");
        try
        {
            var first = await Wait.For(raw.ReadFrameAsync(), "a frame while the hook still runs", TimeSpan.FromSeconds(10));
            Assert.That(first?.Text, Is.EqualTo("from the hook"), "the hook's earlier frame goes first");
            var second = await Wait.For(raw.ReadFrameAsync(), "the other thread's frame while the hook still runs", TimeSpan.FromSeconds(10));
            Assert.That(second?.Text, Is.EqualTo("from another thread"));
        }
        finally
        {
            release.TrySetResult();
        }
    }

    [Test]
    public async Task ACloseFromAnotherThreadWhileAHookSendsGoesAfterTheFramesTheHookSentBeforeIt()
    {
        var hookRunning = new TaskCompletionSource<WsSession>(TaskCreationOptions.RunContinuationsAsynchronously);
        var closed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var afterClose = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        using var server = new HookServer((session, text) =>
        {
            session.SendTextAsync("before the close");
            hookRunning.TrySetResult(session);
            // Bounded: the test closes from its own thread, then lets the hook go on.
            closed.Task.Wait(Wait.Default);
            afterClose.TrySetResult(session.SendTextAsync("after the close"));
        });
        using var raw = await RawWsClient.UpgradeAsync(WsTransport.Ws, server.BoundPort);
        await raw.SendFrameAsync(0x81, WsTestFrames.Utf8("go"));
        var session = await Wait.For(hookRunning.Task, "the hook running");

        Assert.That(session.SendCloseAsync(1000, "bye"), Is.True, "the close is accepted while the hook runs");
        closed.TrySetResult();

        Assert.That(await Wait.For(afterClose.Task, "the hook's send after the close"), Is.False, "no data frame after a close frame");
        var first = await Wait.For(raw.ReadFrameAsync(), "the hook's frame");
        Assert.That(first?.Text, Is.EqualTo("before the close"), "the frame sent before the close goes first");
        var second = await Wait.For(raw.ReadFrameAsync(), "the close frame");
        Assert.That(second?.Opcode, Is.EqualTo(8), "then the close frame");
    }

    /// <summary>A WS server whose sessions run <c>onMessage</c> for each text message, and count their socket writes.</summary>
    private sealed class HookServer : WsServer
    {
        private readonly Action<WsSession, string> _onMessage;
        public int Sends;

        public HookServer(Action<WsSession, string> onMessage)
            : base(IPAddress.Loopback, 0)
        {
            _onMessage = onMessage;
            Assert.That(Start(), Is.True, "the server starts");
        }

        public int BoundPort => ((IPEndPoint)Endpoint).Port;

        protected override TcpSession CreateSession() => new HookSession(this);

        private sealed class HookSession(HookServer server) : WsSession(server)
        {
            public override void OnWsReceived(byte[] buffer, long offset, long size)
                => server._onMessage(this, Encoding.UTF8.GetString(buffer, (int)offset, (int)size));

            protected override void OnSent(long sent, long pending) => Interlocked.Increment(ref server.Sends);
        }
    }
}
