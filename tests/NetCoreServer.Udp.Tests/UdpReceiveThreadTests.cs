using System;
using System.Collections.Concurrent;
using System.Linq;
using System.Net;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Udp.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests;

/// <summary>
/// What <see cref="DatagramPeer.OptionReceiveThread"/> promises beyond the rest of this project (which build/test.sh
/// also runs with every socket in that mode): hooks on the socket's own thread, which a stop ends; and, in both modes,
/// one endpoint per sender (kept to spare an allocation per datagram) that stays right for each sender.
/// </summary>
[TestFixture]
public sealed class UdpReceiveThreadTests
{
    [Test]
    public async Task OnReceivedRunsOnTheSocketsOwnThreadAndAStopEndsThatThread()
    {
        Thread? hookThread = null;
        using var server = new TestUdpServer(IPAddress.Loopback, continuous: true)
        {
            OptionReceiveThread = true,
            ReceivedHandler = (_, _, _, _) => hookThread = Thread.CurrentThread,
        };
        Assert.That(server.Start(), Is.True, "server started");
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort), continuous: true);
        client.Connect();
        Assert.That(client.SendAsync(Encoding.UTF8.GetBytes("ping")), Is.True);
        await Wait.For(client.Received.Reaches(1), "the echo");

        Assert.That(hookThread, Is.Not.Null);
        Assert.That(hookThread!.Name, Is.EqualTo("NetCoreServer UDP receive"), "OnReceived's thread");
        Assert.That(hookThread.IsBackground, Is.True, "the thread does not keep the process alive");
        Assert.That(hookThread.IsThreadPoolThread, Is.False);
        Assert.That(server.Stop(), Is.True, "stopped");
        Assert.That(hookThread.Join(TimeSpan.FromSeconds(10)), Is.True, "the receive thread ended with the stop");
        Assert.That(server.Errors, Is.Empty, "server errors");
    }

    [TestCase(false)]
    [TestCase(true)]
    public async Task ManySendersEachGetTheirOwnEchoes(bool receiveThread)
    {
        using var server = new TestUdpServer(IPAddress.Loopback, continuous: true) { OptionReceiveThread = receiveThread };
        server.Start();
        var clients = Enumerable.Range(0, 20)
            .Select(_ => new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort), continuous: true))
            .ToArray();
        try
        {
            foreach (var client in clients)
                client.Connect();
            for (var round = 0; round < 3; round++)
            {
                for (var i = 0; i < clients.Length; i++)
                    Assert.That(clients[i].SendAsync(Encoding.UTF8.GetBytes($"client {i} round {round}")), Is.True);
                for (var i = 0; i < clients.Length; i++)
                    await Wait.For(clients[i].Received.Reaches(round + 1), $"client {i}'s echo of round {round}");
            }
            for (var i = 0; i < clients.Length; i++)
            {
                var texts = clients[i].Datagrams.Select(d => Encoding.UTF8.GetString(d)).ToArray();
                Assert.That(texts, Is.EquivalentTo(Enumerable.Range(0, 3).Select(r => $"client {i} round {r}")), $"client {i} got its own echoes only");
            }
        }
        finally
        {
            foreach (var client in clients)
                client.Dispose();
        }
    }

    [TestCase(false)]
    [TestCase(true)]
    public async Task AnEndpointTheUserChangedIsNotHandedOutAgain(bool receiveThread)
    {
        var ports = new ConcurrentQueue<int>();
        using var server = new TestUdpServer(IPAddress.Loopback, continuous: true, echo: false)
        {
            OptionReceiveThread = receiveThread,
            ReceivedHandler = (endpoint, _, _, _) =>
            {
                var ip = (IPEndPoint)endpoint;
                ports.Enqueue(ip.Port);
                // IPEndPoint is mutable: a user may reuse the one it was handed.
                ip.Port = 9;
            },
        };
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort), continuous: true);
        client.Connect();
        var clientPort = ((IPEndPoint)client.Socket!.LocalEndPoint!).Port;
        for (var i = 0; i < 3; i++)
        {
            Assert.That(client.SendAsync(new byte[] { (byte)i }), Is.True);
            await Wait.For(server.Received.Reaches(i + 1), $"datagram {i}");
        }
        Assert.That(ports.ToArray(), Is.EqualTo(new[] { clientPort, clientPort, clientPort }), "the sender's port each time");
    }
}
