using System;
using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Testing;
using NetCoreServer.Transports;
using NUnit.Framework;

namespace NetCoreServer.Tests.Sockets;

/// <summary>
/// What an event loop does with what goes wrong on it, and on which thread hooks run: a hook's exception reaches the
/// connection's OnHandlerException, one from the library's own code reaches <see cref="EventLoops.Error"/> and fails
/// its connection; either way the loop goes on serving the others. Reads are made on the loop, also the first one.
/// </summary>
[TestFixture]
public sealed class EventLoopFaultTests
{
    private const string LoopThread = "NetCoreServer event loop ";

    [SetUp]
    public void LinuxOnly()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("event loops are Linux only");
    }

    private sealed class Server(IPAddress address) : TcpServer(address, 0)
    {
        public readonly ConcurrentQueue<string?> ReceiveThreads = new();

        public readonly TaskCompletionSource<Exception> HandlerException = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public readonly TaskCompletionSource<DisconnectReason> ThrowerGone = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public readonly TaskCompletionSource Paused = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public int BoundPort => ((IPEndPoint)Endpoint).Port;

        protected override TcpSession CreateSession() => new Session(this);
    }

    private sealed class Session(Server server) : TcpSession(server)
    {
        private bool _threw;

        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            server.ReceiveThreads.Enqueue(Thread.CurrentThread.Name);
            if (Encoding.ASCII.GetString(buffer, (int)offset, (int)size) == "throw")
            {
                _threw = true;
                throw new InvalidOperationException("thrown by a hook");
            }
            SendAsync(buffer, offset, size);
        }

        protected override void OnHandlerException(Exception exception) => server.HandlerException.TrySetResult(exception);

        protected override void OnWritabilityChanged(bool writable)
        {
            if (!writable)
                server.Paused.TrySetResult();
        }

        protected override void OnDisconnected()
        {
            if (_threw)
                server.ThrowerGone.TrySetResult(DisconnectReason);
        }
    }

    private static async Task<Socket> ConnectAsync(int port)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await socket.ConnectAsync(IPAddress.Loopback, port);
        return socket;
    }

    private static async Task AssertEchoAsync(int port)
    {
        using var socket = await ConnectAsync(port);
        await socket.SendAsync("ping"u8.ToArray(), SocketFlags.None);
        var answer = new byte[4];
        var read = 0;
        while (read < answer.Length)
        {
            var n = await Wait.For(socket.ReceiveAsync(answer.AsMemory(read), SocketFlags.None).AsTask(), "the loop answering another client");
            Assert.That(n, Is.GreaterThan(0), "the echo");
            read += n;
        }
    }

    [Test]
    public async Task AHookThatThrowsReachesOnHandlerExceptionAndTheLoopKeepsServing()
    {
        using var server = new Server(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        using var thrower = await ConnectAsync(server.BoundPort);
        await thrower.SendAsync("throw"u8.ToArray(), SocketFlags.None);
        var exception = await Wait.For(server.HandlerException.Task, "OnHandlerException with the hook's exception");
        Assert.That(exception.Message, Is.EqualTo("thrown by a hook"));
        Assert.That(await Wait.For(server.ThrowerGone.Task, "the throwing session closed"), Is.EqualTo(DisconnectReason.HandlerException));
        await AssertEchoAsync(server.BoundPort);
    }

    [Test]
    public async Task DataThatArrivesWithTheConnectionIsReadOnTheLoop()
    {
        // The first read of an accepted session used to run on the accepting thread when the bytes were already there.
        using var server = new Server(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        for (var i = 0; i < 8; i++)
        {
            using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            socket.Connect(IPAddress.Loopback, server.BoundPort);
            socket.Send("early"u8);
            var answer = new byte[5];
            var read = 0;
            while (read < answer.Length)
                read += await Wait.For(socket.ReceiveAsync(answer.AsMemory(read), SocketFlags.None).AsTask(), "the echo of bytes sent with the connect");
        }
        Assert.That(server.ReceiveThreads, Has.All.StartsWith(LoopThread), "every OnReceived ran on the loop");
    }

    [Test]
    public async Task TheReadThatResumesAfterABackpressurePauseRunsOnTheLoop()
    {
        // The pause ends when the queue drains; the read that resumes used to run where that drain was reported (the pool).
        using var server = new Server(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true, ReceiveBufferSize = 4096 };
        await socket.ConnectAsync(IPAddress.Loopback, server.BoundPort);
        // A round trip first, so that only the resumed read can run anywhere else than the loop.
        await socket.SendAsync("hello"u8.ToArray(), SocketFlags.None);
        var hello = new byte[5];
        for (var read = 0; read < hello.Length;)
            read += await Wait.For(socket.ReceiveAsync(hello.AsMemory(read), SocketFlags.None).AsTask(), "the first echo");
        while (server.ReceiveThreads.TryDequeue(out _))
        {
        }
        const int total = 8 * 1024 * 1024;
        var sending = Task.Run(async () =>
        {
            var chunk = new byte[64 * 1024];
            for (var sent = 0; sent < total; sent += chunk.Length)
                await socket.SendAsync(chunk, SocketFlags.None);
        });
        await Wait.For(server.Paused.Task, "the echo session unwritable: it stops reading");
        var buffer = new byte[256 * 1024];
        for (var read = 0; read < total;)
        {
            var n = await Wait.For(socket.ReceiveAsync(buffer, SocketFlags.None), "the echo after the pause");
            Assert.That(n, Is.GreaterThan(0), "the echo goes on");
            read += n;
        }
        await Wait.For(sending, "every byte sent");
        Assert.That(server.ReceiveThreads, Has.All.StartsWith(LoopThread), "every OnReceived ran on the loop");
    }

    private sealed class ThrowingCompletion : IReceiveCompletion
    {
        public void ReceiveCompleted(IoResult result) => throw new InvalidOperationException(nameof(ThrowingCompletion));
    }

    [Test]
    public async Task AnExceptionTheLoopCatchesIsReportedAndFailsOnlyItsConnection()
    {
        var reported = new TaskCompletionSource<Exception>(TaskCreationOptions.RunContinuationsAsynchronously);
        Action<Exception> handler = e =>
        {
            // The loops are shared by the tests running beside this one: only this test's exception counts.
            if (e.Message == nameof(ThrowingCompletion))
                reported.TrySetResult(e);
        };
        EventLoops.Error += handler;
        try
        {
            using var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
            listener.Listen();
            using var peer = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            await peer.ConnectAsync(listener.LocalEndPoint!);
            var accepted = await listener.AcceptAsync();
            peer.Send("x"u8);
            var transport = EpollTransport.TryCreate(accepted, 1);
            Assert.That(transport, Is.Not.Null);
            // From this thread the read is handed to the loop, whose completion then throws there.
            var buffer = new byte[16];
            if (transport!.TryReceive(buffer, new ThrowingCompletion(), out _))
                Assert.Fail("a read off the loop's thread is made on the loop");
            var exception = await Wait.For(reported.Task, "EventLoops.Error with the exception the loop caught");
            Assert.That(exception, Is.InstanceOf<InvalidOperationException>());
            Assert.That(transport.TryReceive(buffer, new ThrowingCompletion(), out var after), Is.True, "the faulted connection is closed");
            Assert.That(after.Error, Is.EqualTo(SocketError.OperationAborted));
        }
        finally
        {
            EventLoops.Error -= handler;
        }
        using var server = new Server(IPAddress.Loopback) { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        await AssertEchoAsync(server.BoundPort);
    }
}
