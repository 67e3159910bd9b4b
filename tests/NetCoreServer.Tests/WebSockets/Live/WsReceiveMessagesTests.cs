using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Framing;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.WebSockets.Live;

/// <summary><c>await foreach</c> over a WebSocket client's messages: every message to a slow reader, in order, then the end.</summary>
[TestFixture]
public sealed class WsReceiveMessagesTests
{
    [Test]
    public async Task ASlowReaderGetsEveryMessageInOrderAndTheEnumerationEndsWithTheConnection()
    {
        using var server = new BurstServer();
        Assert.That(server.Start(), Is.True);
        using var client = new Client(((IPEndPoint)server.Endpoint).Port);
        Assert.That(client.ConnectAsync(), Is.True);
        await Wait.For(client.Upgraded.Task, "OnWsConnected");
        using var cancel = new CancellationTokenSource(TimeSpan.FromSeconds(20));

        // The enumeration starts with its first MoveNextAsync; only then is the server asked to send.
        var messages = client.ReceiveMessagesAsync(capacity: 4, cancel.Token).GetAsyncEnumerator(cancel.Token);
        var next = messages.MoveNextAsync();
        Assert.That(client.SendTextAsync("go"), Is.True);
        var received = new List<string>();
        while (await next)
        {
            received.Add(Encoding.UTF8.GetString(messages.Current));
            if (received.Count % 50 == 0)
                await Task.Delay(20);
            next = messages.MoveNextAsync();
        }
        await messages.DisposeAsync();

        Assert.That(received, Is.EqualTo(Enumerable.Range(0, BurstServer.Messages).Select(i => $"message {i}")), $"client ended: {client.DisconnectReason}");
        Assert.That(client.HookCount, Is.EqualTo(BurstServer.Messages), "OnWsReceived still ran for each");
    }

    [Test]
    public async Task AReleaseStillUnderWayDoesNotEndTheHoldTheLoopTakesNext()
    {
        // This thread is the receive loop; the connection keeps the reader's release from finishing until told.
        var connection = new SlowReleaseConnection();
        var inbox = new MessageInbox(connection, capacity: 1);
        Assert.That(inbox.Add("message 0"u8), Is.False, "full: the loop holds");
        var reader = inbox.ReadAllAsync(CancellationToken.None).GetAsyncEnumerator();
        var taken = Task.Run(async () => await reader.MoveNextAsync());
        await Wait.For(connection.ReleaseStarted.Task, "the reader's release");

        // Still inside the same read, the loop decodes the next message and holds again while that release is under way.
        var added = Task.Run(() => inbox.Add("message 1"u8));
        await Wait.Within(added, TimeSpan.FromMilliseconds(500));
        connection.FinishRelease.TrySetResult();
        Assert.That(await Wait.For(added, "the second message added"), Is.False, "full again: the loop holds");
        Assert.That(await Wait.For(taken, "the first message taken"), Is.True);

        Assert.That(inbox.Holding, Is.True, "the protocol decodes nothing more");
        Assert.That(connection.LoopHeld, Is.True, "so the loop must read nothing more: what it reads past a hold, up to the end of stream, is dropped");
        await reader.DisposeAsync();
    }

    [Test]
    public void BeforeTheUpgradeThereIsNothingToEnumerate()
    {
        using var client = new Client(1);
        Assert.That(() => client.ReceiveMessagesAsync().GetAsyncEnumerator().MoveNextAsync().AsTask().GetAwaiter().GetResult(), Throws.InvalidOperationException);
    }

    /// <summary>On "go", sends <see cref="Messages"/> text messages, then disconnects (what was queued goes first).</summary>
    private sealed class BurstServer() : WsServer(IPAddress.Loopback, 0)
    {
        public const int Messages = 500;

        protected override TcpSession CreateSession() => new Session(this);

        private sealed class Session(WsServer server) : WsSession(server)
        {
            public override void OnWsReceived(byte[] buffer, long offset, long size)
            {
                if (Encoding.UTF8.GetString(buffer, (int)offset, (int)size) != "go")
                    return;
                for (var i = 0; i < Messages; i++)
                    SendTextAsync($"message {i}");
                Disconnect();
            }
        }
    }

    /// <summary>Never connected: records the loop's hold as the engine does (a bool), and lets a test delay the first release.</summary>
    private sealed class SlowReleaseConnection() : TcpClient(IPAddress.Loopback, 1)
    {
        private int _releases;

        public TaskCompletionSource ReleaseStarted { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public TaskCompletionSource FinishRelease { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public bool LoopHeld { get; private set; }

        internal override void HoldForInbox() => LoopHeld = true;

        internal override void ReleaseForInbox()
        {
            if (Interlocked.Increment(ref _releases) == 1)
            {
                ReleaseStarted.TrySetResult();
                FinishRelease.Task.Wait(Wait.Default);
            }
            LoopHeld = false;
        }
    }

    private sealed class Client(int port) : WsClient(IPAddress.Loopback, port)
    {
        private int _hooks;

        public TaskCompletionSource Upgraded { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public int HookCount => Volatile.Read(ref _hooks);

        public override void OnWsConnected(HttpResponse response) => Upgraded.TrySetResult();

        public override void OnWsReceived(byte[] buffer, long offset, long size) => Interlocked.Increment(ref _hooks);
    }
}
