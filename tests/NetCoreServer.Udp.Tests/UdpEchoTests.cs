using System;
using System.Linq;
using System.Net;
using System.Threading.Tasks;
using NetCoreServer.Udp.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests;

/// <summary>Our client against our server over loopback, in NetCoreServer's one-shot model and in continuous mode.</summary>
[TestFixture]
public sealed class UdpEchoTests
{
    private static byte[] Payload(int index) => Enumerable.Range(0, 1 + index % 1400).Select(i => (byte)(i + index)).ToArray();

    [TestCase("127.0.0.1")]
    [TestCase("::1")]
    public async Task EveryDatagramIsEchoedInOneShotMode(string address)
    {
        var ip = Loopback.For(address);
        using var server = new TestUdpServer(ip);
        Assert.That(server.Start(), Is.True, "server started");
        Assert.That(server.BoundPort, Is.Not.Zero, "Endpoint holds the bound port");
        using var client = new TestUdpClient(new IPEndPoint(ip, server.BoundPort));
        Assert.That(client.Connect(), Is.True, "client connected");

        const int count = 200;
        long bytes = 0;
        for (var i = 0; i < count; i++)
        {
            var payload = Payload(i);
            bytes += payload.Length;
            Assert.That(client.SendAsync(payload), Is.True, $"datagram {i} queued");
            await Wait.For(client.Received.Reaches(i + 1), $"echo of datagram {i}");
        }
        await Wait.For(server.Sent.Reaches(count), "server OnSent for every echo");

        Assert.That(client.Datagrams.ToArray(), Is.EqualTo(Enumerable.Range(0, count).Select(Payload).ToArray()), "echoed datagrams, in order");
        Assert.That(client.DatagramsSent, Is.EqualTo(count));
        Assert.That(client.DatagramsReceived, Is.EqualTo(count));
        Assert.That(client.BytesSent, Is.EqualTo(bytes));
        Assert.That(client.BytesReceived, Is.EqualTo(bytes));
        Assert.That(server.DatagramsReceived, Is.EqualTo(count));
        Assert.That(server.DatagramsSent, Is.EqualTo(count));
        Assert.That(server.BytesReceived, Is.EqualTo(bytes));
        Assert.That(server.BytesSent, Is.EqualTo(bytes));
        Assert.That(server.BytesPending + server.BytesSending + client.BytesPending + client.BytesSending, Is.Zero, "nothing left queued");
        Assert.That(server.Errors, Is.Empty, "server errors");
        Assert.That(client.Errors, Is.Empty, "client errors");
    }

    [TestCase("127.0.0.1")]
    [TestCase("::1")]
    public async Task ContinuousModeKeepsReceivingWithoutReceiveAsync(string address)
    {
        var ip = Loopback.For(address);
        using var server = new TestUdpServer(ip, continuous: true);
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(ip, server.BoundPort), continuous: true);
        client.Connect();

        const int count = 2000;
        const int window = 32;
        for (var i = 0; i < count; i++)
        {
            if (i >= window)
                await Wait.For(client.Received.Reaches(i - window + 1), $"echo of datagram {i - window}");
            Assert.That(client.SendAsync(Payload(i)), Is.True, $"datagram {i} queued");
        }
        await Wait.For(client.Received.Reaches(count), $"all {count} echoes");

        Assert.That(server.DatagramsReceived, Is.EqualTo(count));
        Assert.That(client.DatagramsReceived, Is.EqualTo(count));
        Assert.That(client.Datagrams.Select(d => d.Length).Sum(), Is.EqualTo(Enumerable.Range(0, count).Sum(i => Payload(i).Length)));
    }

    [Test]
    public async Task EachReceiveAsyncDeliversOneDatagramAndCallsWhileOneIsPendingChangeNothing()
    {
        using var server = new TestUdpServer(IPAddress.Loopback, echo: false) { Rearm = false };
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort)) { Rearm = false };
        client.Connect();
        for (var i = 1; i <= 3; i++)
            Assert.That(client.Send($"d{i}"), Is.EqualTo(2), $"d{i} sent");

        server.ReceiveAsync();
        await Wait.For(server.Received.Reaches(1), "the first datagram after one ReceiveAsync");
        // A negative check needs a pause: nothing more may arrive while no receive is requested.
        await Task.Delay(200);
        Assert.That(server.Received.Value, Is.EqualTo(1), "one ReceiveAsync, one datagram");
        server.ReceiveAsync();
        await Wait.For(server.Received.Reaches(2), "the second datagram");
        server.ReceiveAsync();
        await Wait.For(server.Received.Reaches(3), "the third datagram");

        // Nothing is waiting now: the first call leaves a receive pending, the second changes nothing (NetCoreServer).
        server.ReceiveAsync();
        server.ReceiveAsync();
        client.Send("d4");
        client.Send("d5");
        await Wait.For(server.Received.Reaches(4), "the fourth datagram");
        await Task.Delay(200);
        Assert.That(server.Received.Value, Is.EqualTo(4), "two ReceiveAsync calls while a receive was pending deliver one datagram");
        server.ReceiveAsync();
        await Wait.For(server.Received.Reaches(5), "the fifth datagram");
        Assert.That(server.Datagrams.Select(d => System.Text.Encoding.UTF8.GetString(d)), Is.EqualTo(new[] { "d1", "d2", "d3", "d4", "d5" }));
    }

    [Test]
    public async Task TurningContinuousReceiveOnStartsReceivingAtOnce()
    {
        using var server = new TestUdpServer(IPAddress.Loopback, echo: false) { Rearm = false };
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort)) { Rearm = false };
        client.Connect();
        for (var i = 0; i < 5; i++)
            client.Send($"d{i}");
        server.OptionContinuousReceive = true;
        await Wait.For(server.Received.Reaches(5), "all five datagrams without any ReceiveAsync call");
    }

    [Test]
    public async Task EmptyDatagramsAreDeliveredAndEchoed()
    {
        using var server = new TestUdpServer(IPAddress.Loopback);
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort));
        client.Connect();

        Assert.That(client.SendAsync(Array.Empty<byte>()), Is.True);
        await Wait.For(client.Received.Reaches(1), "the echo of an empty datagram");
        Assert.That(client.Datagrams.Single(), Is.Empty);
        Assert.That(server.DatagramsReceived, Is.EqualTo(1));
    }

    [Test]
    public async Task BlockingSendAndReceiveRaiseTheHooksOnTheCaller()
    {
        using var server = new TestUdpServer(IPAddress.Loopback, echo: false) { Rearm = false };
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort)) { Rearm = false };
        client.Connect();

        Assert.That(client.Send("hello"), Is.EqualTo(5));
        Assert.That(client.Sent.Value, Is.EqualTo(1), "OnSent raised by the blocking Send");
        var buffer = new byte[100];
        var (size, sender) = await Wait.For(Task.Run(() =>
        {
            EndPoint endpoint = new IPEndPoint(IPAddress.Any, 0);
            var received = server.Receive(ref endpoint, buffer);
            return (received, endpoint);
        }), "the blocking server Receive");
        Assert.That(size, Is.EqualTo(5));
        Assert.That(server.Received.Value, Is.EqualTo(1), "OnReceived raised by the blocking Receive");
        Assert.That(((IPEndPoint)sender).Port, Is.EqualTo(((IPEndPoint)client.Socket.LocalEndPoint!).Port), "sender is the client");

        Assert.That(server.Send(sender, "world"), Is.EqualTo(5));
        var text = await Wait.For(Task.Run(() =>
        {
            EndPoint endpoint = new IPEndPoint(IPAddress.Any, 0);
            return client.Receive(ref endpoint, 100);
        }), "the blocking client Receive");
        Assert.That(text, Is.EqualTo("world"));
        Assert.That(client.DatagramsReceived, Is.EqualTo(1));
    }

    [Test]
    public async Task HostNameConstructorsResolveAndWork()
    {
        using var server = new TestUdpServer(IPAddress.Loopback);
        server.Start();
        using var client = new HostNameClient("localhost", server.BoundPort);
        Assert.That(client.Connect(), Is.True);
        Assert.That(client.Endpoint, Is.InstanceOf<IPEndPoint>(), "Endpoint resolved on Connect");
        client.SendAsync("ping");
        await Wait.For(client.Echoes.Reaches(1), "echo to a client built from a host name");
    }

    [Test]
    public async Task ADualModeServerEchoesAnIPv4Client()
    {
        Loopback.For("::1");
        using var server = new TestUdpServer(IPAddress.IPv6Any) { OptionDualMode = true };
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort));
        client.Connect();
        client.SendAsync("over IPv4");
        await Wait.For(client.Received.Reaches(1), "echo from a dual-mode IPv6 server to an IPv4 client");
        Assert.That(((IPEndPoint)server.LastSender!).Address.IsIPv4MappedToIPv6, Is.True, "the sender is seen as IPv4-mapped");
    }

    [Test]
    public async Task SendingToAClosedPortDoesNotDisturbReceiving()
    {
        using var server = new TestUdpServer(IPAddress.Loopback);
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort));
        client.Connect();
        // Nobody listens there: the ICMP port-unreachable that comes back must not end or disturb receiving.
        var closed = new IPEndPoint(IPAddress.Loopback, Loopback.FreePort());
        for (var i = 0; i < 10; i++)
            Assert.That(client.SendAsync(closed, "nobody home"), Is.True);
        await Wait.For(client.Sent.Reaches(10), "the datagrams to the closed port sent");
        client.SendAsync("hello");
        await Wait.For(client.Received.Reaches(1), "echo after sending to a closed port");
        Assert.That(client.Errors, Is.Empty, "resets and refusals are not reported");
    }

    private sealed class HostNameClient : UdpClient
    {
        public HostNameClient(string host, int port)
            : base(host, port)
        {
        }

        public Counter Echoes { get; } = new();

        protected override void OnConnected() => ReceiveAsync();

        protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size) => Echoes.Add();
    }
}
