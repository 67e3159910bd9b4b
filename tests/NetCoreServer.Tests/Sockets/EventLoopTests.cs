using System;
using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.Sockets;

/// <summary>
/// What OptionEventLoops changes that a user can see: hooks on the loops' threads, clients on loops, the option's
/// range. The socket suite, the lifecycle and the reliability tests run over event-loop servers as well (tcp-loops,
/// uds-loops).
/// </summary>
[TestFixture]
public sealed class EventLoopTests
{
    private sealed class EchoServer(IPAddress address) : TcpServer(address, 0)
    {
        public readonly ConcurrentQueue<string?> HookThreads = new();

        public long Received;

        public readonly TaskCompletionSource<DisconnectReason> FirstDisconnect = new(TaskCreationOptions.RunContinuationsAsynchronously);

        /// <summary>When set, OnReceived answers with this many bytes through the blocking Send instead of echoing.</summary>
        public int BlockingAnswer;

        protected override TcpSession CreateSession() => new EchoSession(this);
    }

    private sealed class EchoSession(EchoServer server) : TcpSession(server)
    {
        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            server.HookThreads.Enqueue(Thread.CurrentThread.Name);
            Interlocked.Add(ref server.Received, size);
            if (server.BlockingAnswer > 0)
                Send(new byte[server.BlockingAnswer]);
            else
                SendAsync(buffer, offset, size);
        }

        protected override void OnDisconnected() => server.FirstDisconnect.TrySetResult(DisconnectReason);
    }

    private sealed class CountingClient(IPAddress address, int port, long expected) : TcpClient(address, port)
    {
        private long _received;

        public readonly TaskCompletionSource AllReceived = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public string? HookThread;

        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            HookThread = Thread.CurrentThread.Name;
            if (Interlocked.Add(ref _received, size) >= expected)
                AllReceived.TrySetResult();
        }
    }

    private static int PortOf(TcpServer server) => ((IPEndPoint)server.Endpoint).Port;

    [Test]
    public async Task HooksOfAnEventLoopServerRunOnTheLoopThreads()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("event loops are Linux only");
        using var server = new EchoServer(IPAddress.Loopback) { OptionEventLoops = 2 };
        Assert.That(server.Start(), Is.True);
        for (var i = 0; i < 4; i++)
        {
            using var client = new CountingClient(IPAddress.Loopback, PortOf(server), 5);
            Assert.That(client.ConnectAsync(), Is.True);
            await Wait.Until(() => client.IsConnected, "client connected");
            Assert.That(client.SendAsync("hello"), Is.True);
            await Wait.For(client.AllReceived.Task, "the echo");
            client.Disconnect();
        }
        Assert.That(server.HookThreads, Has.Count.EqualTo(4));
        Assert.That(server.HookThreads, Has.All.StartsWith("NetCoreServer event loop "), "OnReceived ran on an event loop");
        Assert.That(server.Stop(), Is.True);
    }

    [Test]
    public async Task AClientOnAnEventLoopEchoesEveryByteWithAServerOnTheRuntimeEngine()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("event loops are Linux only");
        using var server = new EchoServer(IPAddress.Loopback) { OptionEventLoops = 0 };
        Assert.That(server.Start(), Is.True);
        // Large enough that the client's sends and the echo fill the socket buffers and wait for room.
        var message = new byte[4 * 1024 * 1024];
        new Random(7).NextBytes(message);
        using var client = new CountingClient(IPAddress.Loopback, PortOf(server), message.Length) { OptionEventLoops = 1 };
        Assert.That(client.ConnectAsync(), Is.True);
        await Wait.Until(() => client.IsConnected, "client connected");
        Assert.That(client.SendAsync(message), Is.True);
        await Wait.For(client.AllReceived.Task, "the whole echo");
        Assert.That(client.HookThread, Does.StartWith("NetCoreServer event loop "), "the client's OnReceived ran on an event loop");
        Assert.That(client.BytesReceived, Is.EqualTo(message.Length));
        client.Disconnect();
        Assert.That(server.HookThreads, Has.None.StartsWith("NetCoreServer event loop "), "the server stayed on the runtime's engine");
    }

    [Test]
    public void TheEventLoopOptionsRefuseANegativeCount()
    {
        using var server = new EchoServer(IPAddress.Loopback);
        Assert.Throws<ArgumentOutOfRangeException>(() => server.OptionEventLoops = -1);
        using var client = new CountingClient(IPAddress.Loopback, 1, 0);
        Assert.Throws<ArgumentOutOfRangeException>(() => client.OptionEventLoops = -1);
        Assert.That(server.OptionEventLoops, Is.EqualTo(OperatingSystem.IsLinux() ? Environment.ProcessorCount : 0), "default: a loop per core on Linux, else the runtime's engine");
        Assert.That(client.OptionEventLoops, Is.Zero, "clients default to the runtime's engine");
    }

    [Test]
    public async Task AnEventLoopServerSurvivesPeersThatResetWithDataInFlight()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("event loops are Linux only");
        using var server = new EchoServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        var payload = new byte[256 * 1024];
        for (var i = 0; i < 20; i++)
        {
            // The peer sends more than it reads, then resets: the echo's parked send and the receive end with errors.
            using var raw = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            raw.ReceiveBufferSize = 4096;
            await raw.ConnectAsync(IPAddress.Loopback, PortOf(server));
            await raw.SendAsync(payload, SocketFlags.None);
            raw.LingerState = new LingerOption(true, 0);
            raw.Close();
        }
        await Wait.Until(() => server.ConnectedSessions == 0, "every reset session gone");
        // The loop still serves new connections.
        using var client = new CountingClient(IPAddress.Loopback, PortOf(server), 3);
        Assert.That(client.ConnectAsync(), Is.True);
        await Wait.Until(() => client.IsConnected, "client connected");
        Assert.That(client.SendAsync("abc"), Is.True);
        await Wait.For(client.AllReceived.Task, "the echo after the resets");
        client.Disconnect();
    }

    [Test]
    public async Task DataAndEndOfStreamThatArriveTogetherAreBothSeen()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("event loops are Linux only");
        using var server = new EchoServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        // The peer's bytes and its FIN are both queued before the loop first looks: one edge announces the two, and
        // the read that takes the bytes comes back short without the end of stream.
        using var raw = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        raw.Connect(IPAddress.Loopback, PortOf(server));
        raw.Send("goodbye"u8);
        raw.Shutdown(SocketShutdown.Send);
        var reason = await Wait.For(server.FirstDisconnect.Task, "the session sees the end of stream");
        Assert.That(reason, Is.EqualTo(DisconnectReason.PeerClosed));
        Assert.That(Interlocked.Read(ref server.Received), Is.EqualTo(7), "the bytes before it were delivered");
    }

    [Test]
    public async Task UrgentDataDoesNotStallTheBytesAfterIt()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("event loops are Linux only");
        using var server = new EchoServer(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        using var raw = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        raw.Connect(IPAddress.Loopback, PortOf(server));
        // A read stops at the urgent mark with more data behind it (what a telnet client's Ctrl-C sends).
        raw.Send("abc"u8);
        raw.Send("!"u8, SocketFlags.OutOfBand);
        raw.Send("def"u8);
        await Wait.Until(() => Interlocked.Read(ref server.Received) >= 6, "the bytes on both sides of the urgent byte");
        Assert.That(Interlocked.Read(ref server.Received), Is.EqualTo(6), "the urgent byte itself stays out of band");
    }

    [Test]
    public async Task ABlockingSendInAHookDoesNotWaitForItsOwnLoop()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("event loops are Linux only");
        // Server and client on the same single loop: an answer much larger than the socket buffers can only be taken by
        // the client while the hook that sends it has returned.
        const int answer = 8 * 1024 * 1024;
        using var server = new EchoServer(IPAddress.Loopback) { OptionEventLoops = 1, BlockingAnswer = answer };
        Assert.That(server.Start(), Is.True);
        using var client = new CountingClient(IPAddress.Loopback, PortOf(server), answer) { OptionEventLoops = 1 };
        Assert.That(client.ConnectAsync(), Is.True);
        await Wait.Until(() => client.IsConnected, "client connected");
        Assert.That(client.SendAsync("go"), Is.True);
        await Wait.For(client.AllReceived.Task, "the whole answer of the blocking Send");
        Assert.That(client.BytesReceived, Is.EqualTo(answer));
        client.Disconnect();
    }
}
