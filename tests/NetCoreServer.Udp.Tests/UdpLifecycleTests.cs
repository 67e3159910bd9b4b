using System;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Udp.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests;

/// <summary>Start, stop, restart, connect, disconnect and what they promise about hooks.</summary>
[TestFixture]
public sealed class UdpLifecycleTests
{
    [Test]
    public async Task ServerHooksRunInOrderAndRestartBindsTheSamePort()
    {
        using var server = new TestUdpServer(IPAddress.Loopback);
        Assert.That(server.IsStarted, Is.False);
        Assert.That(server.Start(), Is.True);
        Assert.That(server.Start(), Is.False, "a second Start is refused");
        Assert.That(server.IsStarted, Is.True);
        var port = server.BoundPort;

        Assert.That(server.Restart(), Is.True);
        Assert.That(server.BoundPort, Is.EqualTo(port), "restart rebinds the bound port");
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, port));
        client.Connect();
        client.SendAsync("after restart");
        await Wait.For(client.Received.Reaches(1), "echo from the restarted server");

        Assert.That(server.Stop(), Is.True);
        Assert.That(server.Stop(), Is.False, "a second Stop is refused");
        Assert.That(server.IsStarted, Is.False);
        Assert.That(server.Hooks(), Is.EqualTo(new[]
        {
            "OnStarting", "OnStarted", "OnStopping", "OnStopped", "OnStarting", "OnStarted", "OnStopping", "OnStopped",
        }));
        Assert.That(server.IsSocketDisposed, Is.True);
        Assert.That(server.DatagramsReceived, Is.EqualTo(1), "statistics of the last run stay readable");
    }

    [Test]
    public void SendingAfterStopIsRefusedWithoutThrowing()
    {
        var server = new TestUdpServer(IPAddress.Loopback);
        var target = new IPEndPoint(IPAddress.Loopback, 9);
        Assert.That(server.Send(target, "x"), Is.Zero, "Send before Start");
        Assert.That(server.SendAsync(target, "x"), Is.False, "SendAsync before Start");
        server.ReceiveAsync();
        server.Start();
        server.Dispose();
        Assert.That(server.IsDisposed, Is.True);
        Assert.That(server.IsStarted, Is.False, "Dispose stops");
        Assert.That(server.Send(target, "x"), Is.Zero, "Send after Dispose");
        Assert.That(server.SendAsync(target, "x"), Is.False, "SendAsync after Dispose");
        Assert.That(server.Multicast("x"), Is.Zero, "Multicast without a multicast endpoint");
        Assert.DoesNotThrow(() => server.ReceiveAsync());
    }

    [Test]
    public async Task ClientHooksRunInOrderAndReconnectGetsANewSocket()
    {
        using var server = new TestUdpServer(IPAddress.Loopback);
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort));
        Assert.That(client.Connect(), Is.True);
        Assert.That(client.Connect(), Is.False, "a second Connect is refused");
        var firstSocket = client.Socket;
        client.SendAsync("one");
        await Wait.For(client.Received.Reaches(1), "echo before reconnect");

        Assert.That(client.Reconnect(), Is.True);
        Assert.That(client.Socket, Is.Not.SameAs(firstSocket));
        client.SendAsync("two");
        await Wait.For(client.Received.Reaches(2), "echo after reconnect");
        Assert.That(client.Disconnect(), Is.True);
        Assert.That(client.Disconnect(), Is.False, "a second Disconnect is refused");
        Assert.That(client.IsConnected, Is.False);
        Assert.That(client.SendAsync("three"), Is.False, "SendAsync after Disconnect");
        Assert.That(client.Hooks(), Is.EqualTo(new[]
        {
            "OnConnecting", "OnConnected", "OnDisconnecting", "OnDisconnected", "OnConnecting", "OnConnected", "OnDisconnecting", "OnDisconnected",
        }));
    }

    [Test]
    public async Task DatagramsQueuedBeforeDisconnectAreStillSent()
    {
        using var server = new TestUdpServer(IPAddress.Loopback, continuous: true, echo: false);
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort));
        client.Connect();
        for (var i = 0; i < 50; i++)
            Assert.That(client.SendAsync(new byte[1000]), Is.True);
        client.Disconnect();
        Assert.That(client.DatagramsSent, Is.EqualTo(50), "every accepted datagram was handed to the socket before close");
        await Wait.For(server.Received.Reaches(50), "all 50 datagrams at the server");
    }

    [Test]
    public async Task NoDataHookRunsAfterOnStopped()
    {
        using var server = new TestUdpServer(IPAddress.Loopback, continuous: true, echo: false) { Record = false };
        var stopped = false;
        var lateHooks = 0;
        server.ReceivedHandler = (_, _, _, _) =>
        {
            if (System.Threading.Volatile.Read(ref stopped))
                System.Threading.Interlocked.Increment(ref lateHooks);
        };
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort), continuous: true);
        client.Connect();
        var sending = Task.Run(() =>
        {
            for (var i = 0; i < 20_000 && client.IsConnected; i++)
                client.Send(new byte[16]);
        });
        await Wait.For(server.Received.Reaches(100), "traffic before the stop");
        server.Stop();
        System.Threading.Volatile.Write(ref stopped, true);
        await Wait.For(sending, "the sender to finish");
        Assert.That(lateHooks, Is.Zero, "OnReceived after Stop returned");
    }

    // The interleaving in which the close comes between the loop's last closed check and its parking (no hook runs
    // there) is tested on the gate itself: ReceiveGateTests.
    [Test]
    public async Task StopWhileTheReceiveLoopParksWakesItAndReturnsAtOnce()
    {
        using var server = new TestUdpServer(IPAddress.Loopback, echo: false) { Rearm = false };
        server.Start();
        var engine = server.CurrentEngine!;
        server.ReceiveAsync();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort)) { Rearm = false };
        client.Connect();
        client.Send("one");
        await Wait.For(server.Received.Reaches(1), "the server's OnReceived, after which its receive loop parks");

        // A bound on a hang, not a speed test: a missed wake-up makes Stop wait out the 5 s loop-exit timeout.
        await Wait.For(Task.Run(server.Stop), "Stop to return while the receive loop parks", TimeSpan.FromSeconds(2));
        Assert.That(engine.Loops.IsCompleted, Is.True, "both loops ended before Stop returned");
    }

    [Test]
    public async Task DisconnectWhileTheReceiveLoopParksWakesItAndReturnsAtOnce()
    {
        using var server = new TestUdpServer(IPAddress.Loopback);
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort)) { Rearm = false };
        client.Connect();
        var engine = client.CurrentEngine!;
        client.ReceiveAsync();
        client.Send("one");
        await Wait.For(client.Received.Reaches(1), "the client's OnReceived (the echo), after which its receive loop parks");

        await Wait.For(Task.Run(client.Disconnect), "Disconnect to return while the receive loop parks", TimeSpan.FromSeconds(2));
        Assert.That(engine.Loops.IsCompleted, Is.True, "both loops ended before Disconnect returned");
    }

    [Test]
    public async Task AHookThatThrowsIsReportedAndReceivingContinues()
    {
        using var server = new TestUdpServer(IPAddress.Loopback, continuous: true, echo: false);
        server.ReceivedHandler = (_, buffer, offset, size) =>
        {
            if (size == 5)
                throw new InvalidOperationException("handler failure");
        };
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort));
        client.Connect();
        client.Send("throw");
        await Wait.For(server.HandlerExceptions.Reaches(1), "OnHandlerException for the throwing hook");
        client.Send("fine");
        await Wait.For(server.Received.Reaches(2), "the next datagram after the failing hook");
    }

    [Test]
    public async Task AnExceptionFromAHookRaisedInlineBySendReachesTheCaller()
    {
        using var server = new TestUdpServer(IPAddress.Loopback, continuous: true, echo: false);
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort)) { Rearm = false };
        client.SentHandler = (_, _, _) => throw new InvalidOperationException("hook failure");
        client.Connect();
        var error = Assert.Throws<InvalidOperationException>(() => client.Send("inline"), "OnSent of a blocking Send throws into Send");
        Assert.That(error!.Message, Is.EqualTo("hook failure"));
        Assert.That(NetCoreServer.Engine.Hooks.InsideAny, Is.False, "the hook scope ended with the hook that threw");
        await Wait.For(server.Received.Reaches(1), "the datagram whose OnSent threw");
    }

    [Test]
    public async Task ADatagramLongerThanTheReceiveLimitIsDroppedAndReported()
    {
        using var server = new TestUdpServer(IPAddress.Loopback, continuous: true, echo: false) { OptionReceiveBufferLimit = 100 };
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort));
        client.Connect();
        client.Send(new byte[500]);
        client.Send(new byte[50]);
        await Wait.For(server.Received.Reaches(1), "the datagram that fits");
        Assert.That(server.Datagrams, Has.Exactly(1).Items, "the long datagram was not delivered");
        Assert.That(server.Datagrams.Single().Length, Is.EqualTo(50));
        Assert.That(server.Errors, Does.Contain(SocketError.MessageSize), "the long datagram was reported");
    }

    [Test]
    public void BindingABusyPortThrowsAndLeavesTheServerStopped()
    {
        using var first = new TestUdpServer(IPAddress.Loopback);
        first.Start();
        using var second = new UdpServer(IPAddress.Loopback, first.BoundPort);
        var error = Assert.Throws<SocketException>(() => second.Start());
        Assert.That(error!.SocketErrorCode, Is.EqualTo(SocketError.AddressAlreadyInUse));
        Assert.That(second.IsStarted, Is.False);
    }
}
