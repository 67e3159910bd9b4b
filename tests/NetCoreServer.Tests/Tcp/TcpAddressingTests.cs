using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Tcp;

/// <summary>TCP addressing: dual mode and host names.</summary>
[TestFixture]
public sealed class TcpAddressingTests
{
    private sealed class Echo(IPAddress address) : TcpServer(address, 0)
    {
        protected override TcpSession CreateSession() => new EchoSession(this);
    }

    private sealed class EchoSession(TcpServer server) : TcpSession(server)
    {
        protected override void OnReceived(byte[] buffer, long offset, long size) => SendAsync(buffer, offset, size);
    }

    private sealed class Client : TcpClient
    {
        public Client(string address, int port)
            : base(address, port)
        {
        }

        public Client(DnsEndPoint endpoint)
            : base(endpoint)
        {
        }

        public Counter Received { get; } = new();

        protected override void OnReceived(byte[] buffer, long offset, long size) => Received.Add(size);
    }

    [Test]
    public async Task ADualModeServerOnIPv6AnyAcceptsAnIPv4Client()
    {
        using var server = new Echo(IPAddress.IPv6Any) { OptionDualMode = true };
        Assert.That(server.Start(), Is.True);
        var port = ((IPEndPoint)server.Endpoint).Port;

        using var v4 = new Client("127.0.0.1", port);
        using var v6 = new Client("::1", port);
        foreach (var client in new[] { v4, v6 })
        {
            Assert.That(await Wait.For(client.ConnectAndWaitAsync(), $"connect to {client.Address}"), Is.True);
            client.SendAsync("dual");
            await Wait.For(client.Received.Reaches(4), $"echo over {client.Address}");
        }
        Assert.That(v4.Socket!.AddressFamily, Is.EqualTo(AddressFamily.InterNetwork));
        Assert.That(v6.Socket!.AddressFamily, Is.EqualTo(AddressFamily.InterNetworkV6));
    }

    [Test]
    public async Task AClientConnectsByHostNameSynchronouslyAndAsynchronously()
    {
        using var server = new Echo(IPAddress.Loopback);
        Assert.That(server.Start(), Is.True);
        var port = ((IPEndPoint)server.Endpoint).Port;

        using var byString = new Client("localhost", port);
        Assert.That(byString.Endpoint, Is.InstanceOf<DnsEndPoint>(), "a name becomes a DnsEndPoint");
        Assert.That(await Wait.For(byString.ConnectAndWaitAsync(), "async connect to localhost"), Is.True);
        byString.SendAsync("name");
        await Wait.For(byString.Received.Reaches(4), "echo after async connect by name");

        using var byEndpoint = new Client(new DnsEndPoint("localhost", port));
        Assert.That(byEndpoint.Connect(), Is.True, "sync connect to localhost tries every address it resolves to");
        byEndpoint.ReceiveAsync();
        byEndpoint.SendAsync("name");
        await Wait.For(byEndpoint.Received.Reaches(4), "echo after sync connect by name");
    }
}
