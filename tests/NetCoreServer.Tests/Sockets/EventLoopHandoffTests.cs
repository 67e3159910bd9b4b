using System;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NetCoreServer.Transports;
using NUnit.Framework;

namespace NetCoreServer.Tests.Sockets;

/// <summary>
/// The event-loop handoff: a hook that blocks on a loop's thread (here until the test releases it) gets the loop taken
/// from it, another thread serves the loop's other connections meanwhile, and the blocked session's later reads come,
/// in order, once its hook has returned. One loop (OptionEventLoops = 1), so every connection shares the blocked one.
/// </summary>
[TestFixture]
public sealed class EventLoopHandoffTests
{
    private const string LoopThread = "NetCoreServer event loop ";

    // A hook that never got its loop taken would block the other connections until the test gave up on them.
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(10);

    [SetUp]
    public void LinuxOnly()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("event loops are Linux only");
    }

    /// <summary>A one-loop echo server whose session blocks in OnReceived on "block" until <see cref="Release"/> is set.</summary>
    private sealed class BlockingServer(IPAddress address) : TcpServer(address, 0)
    {
        public readonly ManualResetEventSlim Release = new();

        public readonly TaskCompletionSource<bool> Blocked = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public readonly TaskCompletionSource<bool> Returned = new(TaskCreationOptions.RunContinuationsAsynchronously);

        // Hooks blocked at once, and the count that completes AllBlocked.
        public int BlockedCount;

        public int ExpectedBlocked = 1;

        public readonly TaskCompletionSource AllBlocked = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public string? BlockedThread;

        // Hooks of one session running at once: a later read delivered while the blocked hook still runs would make two.
        public int Overlaps;

        public int BoundPort => ((IPEndPoint)Endpoint).Port;

        protected override TcpSession CreateSession() => new BlockingSession(this);
    }

    private sealed class BlockingSession(BlockingServer server) : TcpSession(server)
    {
        private int _inHook;

        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            if (Interlocked.Increment(ref _inHook) > 1)
                Interlocked.Increment(ref server.Overlaps);
            try
            {
                var text = Encoding.ASCII.GetString(buffer, (int)offset, (int)size);
                if (text is not ("block" or "spin"))
                {
                    SendAsync(buffer, offset, size);
                    return;
                }
                server.BlockedThread = Thread.CurrentThread.Name;
                server.Blocked.TrySetResult(ThreadRole.IsLoop);
                if (Interlocked.Increment(ref server.BlockedCount) == server.ExpectedBlocked)
                    server.AllBlocked.TrySetResult();
                // Bounded: a test that fails must not leave the process-wide loop blocked for the fixtures after it.
                if (text == "block")
                    server.Release.Wait(TimeSpan.FromSeconds(30));
                else
                    SpinUntil(server.Release, TimeSpan.FromSeconds(30));
                server.Returned.TrySetResult(ThreadRole.IsLoop);
            }
            finally
            {
                Interlocked.Decrement(ref _inHook);
            }
        }
    }

    // A hook that computes rather than waits: its thread stays runnable all along.
    private static void SpinUntil(ManualResetEventSlim release, TimeSpan limit)
    {
        var until = Environment.TickCount64 + (long)limit.TotalMilliseconds;
        while (!release.IsSet && Environment.TickCount64 < until)
            Thread.SpinWait(100);
    }

    private static async Task<Socket> ConnectAsync(int port)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await socket.ConnectAsync(IPAddress.Loopback, port);
        return socket;
    }

    private static async Task<string> EchoAsync(Socket socket, string text, string expected)
    {
        await socket.SendAsync(Encoding.ASCII.GetBytes(text), SocketFlags.None);
        return await ReadAsync(socket, text.Length, expected);
    }

    private static async Task<string> ReadAsync(Socket socket, int length, string expected)
    {
        var answer = new byte[length];
        var read = 0;
        while (read < length)
        {
            var n = await Wait.For(socket.ReceiveAsync(answer.AsMemory(read), SocketFlags.None).AsTask(), expected, Deadline);
            Assert.That(n, Is.GreaterThan(0), expected);
            read += n;
        }
        return Encoding.ASCII.GetString(answer);
    }

    /// <summary>Two connections on the one loop, the first blocked in its hook: returns them once the hook blocks.</summary>
    private static async Task<(Socket Blocked, Socket Other)> BlockOneAsync(BlockingServer server)
    {
        var blocked = await ConnectAsync(server.BoundPort);
        var other = await ConnectAsync(server.BoundPort);
        // A round trip each first: an accepted session's first read may run on the accepting thread, later ones on the loop.
        await EchoAsync(blocked, "hello", "the first connection's echo");
        await EchoAsync(other, "hello", "the second connection's echo");
        await blocked.SendAsync("block"u8.ToArray(), SocketFlags.None);
        var wasLoop = await Wait.For(server.Blocked.Task, "the hook blocking", Deadline);
        Assert.That(server.BlockedThread, Does.StartWith(LoopThread), "the hook blocks on the loop's thread");
        Assert.That(wasLoop, Is.True, "the hook's thread is the loop before it blocks");
        return (blocked, other);
    }

    /// <summary>A one-loop server with one connection's hook blocked; <paramref name="body"/> runs, then the hook is released (also when the body fails).</summary>
    private static async Task WithOneHookBlockedAsync(Func<BlockingServer, Socket, Socket, Task> body)
    {
        using var server = new BlockingServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        try
        {
            var (blocked, other) = await BlockOneAsync(server);
            using (blocked)
            using (other)
                await body(server, blocked, other);
        }
        finally
        {
            server.Release.Set();
        }
        await Wait.For(server.Returned.Task, "the blocked hook returning", Deadline);
    }

    [Test]
    public Task AHookThatBlocksOnALoopDoesNotDelayAnotherConnectionOfTheLoop() => WithOneHookBlockedAsync(async (server, _, other) =>
    {
        var echo = await EchoAsync(other, "ping", "the other connection's echo while the first one's hook blocks");
        Assert.That(echo, Is.EqualTo("ping"));
        Assert.That(server.Returned.Task.IsCompleted, Is.False, "answered while the blocked hook had not returned");
    });

    [Test]
    public Task ASessionWhoseHookBlockedGetsItsLaterReadsInOrderOnceItReturns() => WithOneHookBlockedAsync(async (server, blocked, other) =>
    {
        const string later = "abcdefghijklmnopqrst";
        foreach (var letter in later)
            await blocked.SendAsync(new[] { (byte)letter }, SocketFlags.None);
        // The loop runs on meanwhile: it has seen the blocked connection's bytes arrive, and held them back.
        await EchoAsync(other, "ping", "the other connection's echo while the first one's hook blocks");
        Assert.That(server.Returned.Task.IsCompleted, Is.False, "nothing of the blocked session ran before its hook returned");
        server.Release.Set();
        var echoed = await ReadAsync(blocked, later.Length, "the blocked session's later reads, once its hook returned");
        Assert.That(echoed, Is.EqualTo(later), "delivered in the order they were sent");
        Assert.That(server.Overlaps, Is.Zero, "no hook of the session ran while the blocked one still ran");
    });

    [Test]
    public Task AThreadWhoseLoopWasHandedOffIsNoLongerTheLoopWhenItsHookContinues() => WithOneHookBlockedAsync(async (server, _, other) =>
    {
        // Answered only by another thread serving the loop: the handoff has happened.
        await EchoAsync(other, "ping", "the other connection's echo while the first one's hook blocks");
        server.Release.Set();
        var stillLoop = await Wait.For(server.Returned.Task, "the blocked hook returning", Deadline);
        Assert.That(stillLoop, Is.False, "ThreadRole.IsLoop on the handed-off thread once its hook continues");
    });

    [Test]
    public async Task AHookThatComputesOnALoopIsHandedOffToo()
    {
        // The watchdog waits longer for a thread that runs (it may only be preempted) than for one that waits, but a hook
        // that keeps computing loses its loop as well.
        using var server = new BlockingServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        using var spinning = await ConnectAsync(server.BoundPort);
        using var other = await ConnectAsync(server.BoundPort);
        try
        {
            await EchoAsync(spinning, "hello", "the first connection's echo");
            await EchoAsync(other, "hello", "the second connection's echo");
            await spinning.SendAsync("spin"u8.ToArray(), SocketFlags.None);
            await Wait.For(server.Blocked.Task, "the hook computing", Deadline);
            var echo = await EchoAsync(other, "ping", "the other connection's echo while the first one's hook computes");
            Assert.That(echo, Is.EqualTo("ping"));
            Assert.That(server.Returned.Task.IsCompleted, Is.False, "answered while the hook still computed");
        }
        finally
        {
            server.Release.Set();
        }
        await Wait.For(server.Returned.Task, "the computing hook returning", Deadline);
    }

    [Test]
    public async Task WithAHookBlockedOnEveryLoopANewConnectionIsStillAnswered()
    {
        // Four sessions spread round robin over two loops, each blocked in its hook at the same time.
        const int blocked = 4;
        using var server = new BlockingServer(IPAddress.Loopback) { OptionEventLoops = 2, ExpectedBlocked = blocked };
        Assert.That(server.Start(), Is.True);
        var sockets = new Socket[blocked];
        try
        {
            for (var i = 0; i < blocked; i++)
            {
                sockets[i] = await ConnectAsync(server.BoundPort);
                await EchoAsync(sockets[i], "hello", "an echo before the block");
                await sockets[i].SendAsync("block"u8.ToArray(), SocketFlags.None);
            }
            await Wait.For(server.AllBlocked.Task, "every session's hook blocked at once", Deadline);
            using var other = await ConnectAsync(server.BoundPort);
            var echo = await EchoAsync(other, "ping", "a new connection's echo while every loop has a blocked hook");
            Assert.That(echo, Is.EqualTo("ping"));
            Assert.That(server.Returned.Task.IsCompleted, Is.False, "answered while the hooks were still blocked");
        }
        finally
        {
            server.Release.Set();
            foreach (var socket in sockets)
                socket?.Dispose();
        }
    }
}
