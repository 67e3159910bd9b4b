using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Udp.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests;

/// <summary>The bounded SendAsync queue.</summary>
[TestFixture]
public sealed class UdpSendLimitTests
{
    [Test]
    public async Task SendAsyncReturnsFalseWhenItsQueueLimitIsReached()
    {
        using var server = new TestUdpServer(IPAddress.Loopback, continuous: true, echo: false) { Record = false };
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort)) { OptionSendBufferLimit = 10_000 };
        var results = new List<bool>();
        long pendingAtLimit = -1;
        // Inside OnSent the send loop is busy with us, so nothing drains: the queue fills deterministically.
        client.SentHandler = (self, _, _) =>
        {
            if (results.Count > 0)
                return;
            for (var i = 0; i < 15; i++)
                results.Add(self.SendAsync(new byte[1000]));
            pendingAtLimit = self.BytesPending;
        };
        client.Connect();

        Assert.That(client.SendAsync(new byte[1000]), Is.True, "the first datagram");
        await Wait.For(client.Sent.Reaches(11), "the first datagram and the ten accepted ones sent");

        Assert.That(results.GetRange(0, 10), Is.All.True, "ten datagrams fit the 10,000-byte limit");
        Assert.That(results.GetRange(10, 5), Is.All.False, "the eleventh and later are refused");
        Assert.That(pendingAtLimit, Is.EqualTo(10_000), "BytesPending at the limit");
        Assert.That(client.Errors, Does.Contain(SocketError.NoBufferSpaceAvailable), "OnError for the refusal");
        await Wait.For(server.Received.Reaches(11), "the accepted datagrams at the server");
        Assert.That(client.BytesPending, Is.Zero, "the queue drained");
        Assert.That(client.SendAsync(new byte[1000]), Is.True, "accepted again once drained");
    }

    [Test]
    public void ADatagramLargerThanTheLimitIsRefused()
    {
        using var server = new TestUdpServer(IPAddress.Loopback);
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort)) { OptionSendBufferLimit = 100 };
        client.Connect();
        Assert.That(client.SendAsync(new byte[101]), Is.False);
        Assert.That(client.Errors, Is.EqualTo(new[] { SocketError.NoBufferSpaceAvailable }));
        Assert.That(client.DatagramsSent, Is.Zero);
    }

    [Test]
    public void TheDefaultSendLimitIsFourMebibytes()
    {
        using var client = new UdpClient(IPAddress.Loopback, 9);
        Assert.That(client.OptionSendBufferLimit, Is.EqualTo(4 * 1024 * 1024));
        Assert.That(client.OptionContinuousReceive, Is.False, "NetCoreServer's one-shot ReceiveAsync by default");
    }

    [Test]
    public void ADatagramTooLongForUdpIsReportedBySend()
    {
        using var server = new TestUdpServer(IPAddress.Loopback);
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort));
        client.Connect();
        Assert.That(client.Send(new byte[70_000]), Is.Zero);
        Assert.That(client.Errors, Does.Contain(SocketError.MessageSize));
    }
}
