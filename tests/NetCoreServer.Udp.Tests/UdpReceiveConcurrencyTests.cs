using System;
using System.Linq;
using System.Net;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Udp.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests;

/// <summary>
/// OptionReceiveConcurrency: with more than one receive posted (continuous mode) hooks may overlap and every datagram is
/// still answered; with the default of one, or in the one-shot ReceiveAsync model, NetCoreServer's one-at-a-time holds.
/// </summary>
[TestFixture]
public sealed class UdpReceiveConcurrencyTests
{
    private static byte[] Tagged(int client, int sequence) => BitConverter.GetBytes(client).Concat(BitConverter.GetBytes(sequence)).ToArray();

    [TestCase("127.0.0.1", 4)]
    [TestCase("::1", 2)]
    public async Task DatagramsFromManyClientsAreAllAnsweredWithSeveralReceivesPosted(string address, int receivers)
    {
        var ip = Loopback.For(address);
        using var server = new TestUdpServer(ip, continuous: true)
        {
            OptionReceiveConcurrency = receivers,
            OptionReceiveBufferSize = 4 * 1024 * 1024,
            Record = false,
        };
        Assert.That(server.Start(), Is.True, "server started");

        const int clients = 40;
        const int perClient = 100;
        const int window = 4;
        var sockets = Enumerable.Range(0, clients)
            .Select(_ => new TestUdpClient(new IPEndPoint(ip, server.BoundPort), continuous: true) { OptionReceiveBufferSize = 1024 * 1024 })
            .ToArray();
        try
        {
            foreach (var client in sockets)
                Assert.That(client.Connect(), Is.True, "client connected");
            // Every client keeps a few datagrams in flight, all clients at once.
            await Task.WhenAll(sockets.Select((client, index) => Task.Run(async () =>
            {
                for (var i = 0; i < perClient; i++)
                {
                    if (i >= window)
                        await Wait.For(client.Received.Reaches(i - window + 1), $"client {index}: echo of datagram {i - window}");
                    Assert.That(client.SendAsync(Tagged(index, i)), Is.True, $"client {index}: datagram {i} queued");
                }
                await Wait.For(client.Received.Reaches(perClient), $"client {index}: all {perClient} echoes");
            })));

            for (var index = 0; index < clients; index++)
            {
                var echoes = sockets[index].Datagrams.Select(d => (BitConverter.ToInt32(d, 0), BitConverter.ToInt32(d, 4))).ToArray();
                Assert.That(echoes.Select(e => e.Item1).Distinct(), Is.EqualTo(new[] { index }), $"client {index} got only its own datagrams back");
                Assert.That(echoes.Select(e => e.Item2).Order(), Is.EqualTo(Enumerable.Range(0, perClient)), $"client {index} got each datagram back once");
            }
            await Wait.For(server.Sent.Reaches(clients * perClient), "server OnSent for every echo");
            Assert.That(server.DatagramsReceived, Is.EqualTo(clients * perClient), "datagrams received");
            Assert.That(server.DatagramsSent, Is.EqualTo(clients * perClient), "datagrams sent");
            Assert.That(server.BytesSent, Is.EqualTo(clients * perClient * 8L), "bytes sent");
            Assert.That(server.BytesPending + server.BytesSending, Is.Zero, "nothing left queued or in flight");
            Assert.That(server.Errors, Is.Empty, "server errors");
        }
        finally
        {
            foreach (var client in sockets)
                client.Dispose();
        }
    }

    [Test]
    public async Task OnReceivedCallsOverlapWithTwoReceivesPosted()
    {
        using var bothInside = new CountdownEvent(2);
        var overlap = new OverlapMeter();
        using var server = new TestUdpServer(IPAddress.Loopback, continuous: true, echo: false) { OptionReceiveConcurrency = 2 };
        server.ReceivedHandler = (_, _, _, _) =>
        {
            using var inside = overlap.Enter();
            // Each of the first two calls waits (bounded) until the other is inside too: possible only if they overlap.
            if (!bothInside.IsSet)
            {
                bothInside.Signal();
                bothInside.Wait(TimeSpan.FromSeconds(10));
            }
        };
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort)) { Rearm = false };
        client.Connect();
        client.Send("first");
        client.Send("second");

        await Wait.For(server.Received.Reaches(2), "both datagrams delivered");
        Assert.That(bothInside.IsSet, Is.True, "the two OnReceived calls were inside at the same time");
        Assert.That(overlap.Max, Is.EqualTo(2), "at most two OnReceived calls at once with two receives posted");
    }

    [TestCase(true)]
    [TestCase(false)]
    public async Task OnReceivedNeverOverlapsWithOneReceive(bool continuous)
    {
        var overlap = new OverlapMeter();
        // The default concurrency in continuous mode; four requested in the one-shot model, which ignores it.
        using var server = new TestUdpServer(IPAddress.Loopback, continuous, echo: false)
        {
            Record = false,
            OptionReceiveBufferSize = 4 * 1024 * 1024,
        };
        if (!continuous)
            server.OptionReceiveConcurrency = 4;
        server.ReceivedHandler = (_, _, _, _) =>
        {
            using var inside = overlap.Enter();
            // Long enough that a second receive, were one posted, would land while this call is inside.
            Thread.Sleep(1);
        };
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort)) { Rearm = false };
        client.Connect();
        const int count = 200;
        for (var i = 0; i < count; i++)
            client.Send("datagram");

        await Wait.For(server.Received.Reaches(count), $"all {count} datagrams");
        Assert.That(overlap.Max, Is.EqualTo(1), "OnReceived calls never overlapped");
    }

    [Test]
    public async Task OneShotReceiveAsyncKeepsOneReceiveOutstandingWhateverTheConcurrency()
    {
        using var server = new TestUdpServer(IPAddress.Loopback, echo: false) { Rearm = false, OptionReceiveConcurrency = 4 };
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort)) { Rearm = false };
        client.Connect();
        client.Send("d1");
        client.Send("d2");

        server.ReceiveAsync();
        await Wait.For(server.Received.Reaches(1), "the first datagram after one ReceiveAsync");
        // A negative check needs a pause: nothing more may arrive while no receive is requested.
        await Task.Delay(200);
        Assert.That(server.Received.Value, Is.EqualTo(1), "one ReceiveAsync, one datagram");
        server.ReceiveAsync();
        await Wait.For(server.Received.Reaches(2), "the second datagram");

        // Nothing is waiting now: the first call leaves one receive pending, the second changes nothing.
        server.ReceiveAsync();
        server.ReceiveAsync();
        client.Send("d3");
        client.Send("d4");
        await Wait.For(server.Received.Reaches(3), "the third datagram");
        await Task.Delay(200);
        Assert.That(server.Received.Value, Is.EqualTo(3), "two ReceiveAsync calls while a receive was pending deliver one datagram");
    }

    [Test]
    public async Task DatagramsOneThreadSendsLeaveInItsOrderWhenSendAsyncSendsDirectly()
    {
        using var server = new TestUdpServer(IPAddress.Loopback, continuous: true, echo: false) { OptionReceiveBufferSize = 4 * 1024 * 1024 };
        server.Start();
        // The client's concurrency makes its SendAsync send on the calling thread instead of through the send loop.
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort), continuous: true) { OptionReceiveConcurrency = 2 };
        client.Connect();
        const int count = 1000;
        for (var i = 0; i < count; i++)
            Assert.That(client.SendAsync(BitConverter.GetBytes(i)), Is.True, $"datagram {i} queued");

        await Wait.For(server.Received.Reaches(count), $"all {count} datagrams");
        await Wait.For(client.Sent.Reaches(count), "client OnSent for every datagram");
        Assert.That(server.Datagrams.Select(d => BitConverter.ToInt32(d)), Is.EqualTo(Enumerable.Range(0, count)), "received in the order sent");
        Assert.That(client.BytesSent, Is.EqualTo(count * 4L), "bytes sent");
        Assert.That(client.BytesPending + client.BytesSending, Is.Zero, "nothing left in flight");
    }

    [Test]
    public async Task StopWithSeveralReceivesPostedEndsEveryLoopAndRestartWorks()
    {
        using var server = new TestUdpServer(IPAddress.Loopback, continuous: true) { OptionReceiveConcurrency = 3 };
        server.Start();
        using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, server.BoundPort), continuous: true);
        client.Connect();
        client.SendAsync("before");
        await Wait.For(client.WhenReceived("before"), "echo before the stop");

        var engine = server.CurrentEngine!;
        Assert.That(server.Stop(), Is.True, "stopped");
        Assert.That(engine.Loops.IsCompleted, Is.True, "every receive loop and the send loop ended with the stop");
        var received = server.Received.Value;
        client.SendAsync("while stopped");
        await Task.Delay(200);
        Assert.That(server.Received.Value, Is.EqualTo(received), "no hook after OnStopped");

        Assert.That(server.Start(), Is.True, "started again");
        client.SendAsync("after");
        await Wait.For(client.WhenReceived("after"), "echo after the restart");
        Assert.That(server.Hooks(), Is.EqualTo(new[] { "OnStarting", "OnStarted", "OnStopping", "OnStopped", "OnStarting", "OnStarted" }));
    }

    [TestCase(0)]
    [TestCase(-1)]
    [TestCase(65)]
    public void AConcurrencyOutsideOneTo64IsRefused(int value)
    {
        using var server = new TestUdpServer(IPAddress.Loopback);
        Assert.Throws<ArgumentOutOfRangeException>(() => server.OptionReceiveConcurrency = value);
        Assert.That(server.OptionReceiveConcurrency, Is.EqualTo(1), "the default stays");
    }

    /// <summary>Counts how many callers are inside at once, and the most there ever were.</summary>
    private sealed class OverlapMeter
    {
        private int _inside;
        private int _max;

        public int Max => Volatile.Read(ref _max);

        public Scope Enter()
        {
            var now = Interlocked.Increment(ref _inside);
            int seen;
            while (now > (seen = Volatile.Read(ref _max)) && Interlocked.CompareExchange(ref _max, now, seen) != seen)
            {
            }
            return new Scope(this);
        }

        public readonly struct Scope(OverlapMeter meter) : IDisposable
        {
            public void Dispose() => Interlocked.Decrement(ref meter._inside);
        }
    }
}
