using System;
using System.Net;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests;

/// <summary>
/// The send queue on its own, driven as the send loop drives it (take, send, park), so its limit, its parking and its
/// flush and close are checked without a socket or a timing window.
/// </summary>
[TestFixture]
public sealed class DatagramSendQueueTests
{
    private static readonly EndPoint s_target = new IPEndPoint(IPAddress.Loopback, 9);

    [Test]
    public void ADatagramThatWouldPassTheLimitIsRefusedAndCostsNothing()
    {
        var queue = new DatagramSendQueue(new DatagramOptions { SendBufferLimit = 10 });

        Assert.That(queue.Enqueue(s_target, new byte[6]), Is.EqualTo(EnqueueResult.Accepted));
        Assert.That(queue.Enqueue(s_target, new byte[5]), Is.EqualTo(EnqueueResult.OverLimit), "6 + 5 bytes pass a limit of 10");
        Assert.That(queue.Enqueue(s_target, new byte[4]), Is.EqualTo(EnqueueResult.Accepted), "6 + 4 bytes fit exactly");

        Assert.That(queue.BytesPending, Is.EqualTo(10), "the refused datagram is not counted");
    }

    [Test]
    public void TheDatagramBeingSentStillCountsTowardTheLimit()
    {
        var queue = new DatagramSendQueue(new DatagramOptions { SendBufferLimit = 10 });
        queue.Enqueue(s_target, new byte[8]);

        Assert.That(queue.Take(out var taken), Is.EqualTo(DatagramSendQueue.Step.Send));
        Assert.That((taken.Length, queue.BytesPending, queue.BytesSending), Is.EqualTo((8, 0L, 8L)), "taken: pending moves to sending");
        Assert.That(queue.Enqueue(s_target, new byte[3]), Is.EqualTo(EnqueueResult.OverLimit), "8 in flight + 3 pass 10");

        queue.Sent();
        Assert.That(queue.BytesSending, Is.Zero);
        Assert.That(queue.Enqueue(s_target, new byte[3]), Is.EqualTo(EnqueueResult.Accepted), "room again once sent");
    }

    [Test]
    public void DatagramsAreTakenInTheOrderTheyWereQueuedWithTheirOwnCopy()
    {
        var queue = new DatagramSendQueue(new DatagramOptions());
        var first = new byte[] { 1, 2, 3 };
        queue.Enqueue(s_target, first);
        queue.Enqueue(s_target, new byte[] { 4 });
        first[0] = 99;

        queue.Take(out var a);
        queue.Sent();
        queue.Take(out var b);

        Assert.That(a.Buffer.AsSpan(0, a.Length).ToArray(), Is.EqualTo(new byte[] { 1, 2, 3 }), "copied when queued, not when sent");
        Assert.That(b.Buffer.AsSpan(0, b.Length).ToArray(), Is.EqualTo(new byte[] { 4 }));
    }

    [Test]
    public void ADatagramQueuedWhileTheLoopIsParkedWakesIt()
    {
        var queue = new DatagramSendQueue(new DatagramOptions());
        Assert.That(queue.Take(out _), Is.EqualTo(DatagramSendQueue.Step.Park), "nothing queued");
        var parked = queue.WaitAsync();
        Assert.That(parked.IsCompleted, Is.False, "parked until something wakes it");

        queue.Enqueue(s_target, new byte[1]);

        Assert.That(parked.IsCompleted, Is.True, "SendAsync wakes the parked loop");
        Assert.That(queue.Take(out _), Is.EqualTo(DatagramSendQueue.Step.Send));
    }

    [Test]
    public async Task AFlushRefusesNewDatagramsAndReturnsWhenTheLoopHasSentTheQueuedOnes()
    {
        var queue = new DatagramSendQueue(new DatagramOptions());
        queue.Enqueue(s_target, new byte[1]);
        queue.Enqueue(s_target, new byte[1]);

        // Far longer than the test's own wait: a flush that returns only by timing out fails the test.
        var flush = Task.Run(() => queue.Flush(TimeSpan.FromMinutes(5)));
        await Wait.Until(() => queue.IsClosing, "the flush stops accepting datagrams");
        Assert.That(queue.Enqueue(s_target, new byte[1]), Is.EqualTo(EnqueueResult.Closed), "no new datagram once flushing");
        for (var i = 0; i < 2; i++)
        {
            Assert.That(queue.Take(out _), Is.EqualTo(DatagramSendQueue.Step.Send), "the queued datagrams are still sent");
            queue.Sent();
        }
        Assert.That(queue.Take(out _), Is.EqualTo(DatagramSendQueue.Step.Park));

        await Wait.For(flush, "the flush returns once the loop parks with nothing left");
        Assert.That(queue.IsClosed, Is.False, "a flush does not close");
    }

    [Test]
    public async Task AFlushOfAnEmptyQueueReturnsAtOnce()
    {
        var queue = new DatagramSendQueue(new DatagramOptions());

        await Wait.For(Task.Run(() => queue.Flush(TimeSpan.FromMinutes(5))), "a flush with nothing to send returns without waiting");
    }

    [Test]
    public void CloseDropsWhatIsQueuedEndsTheLoopAndOnlyTheFirstCloseCounts()
    {
        var queue = new DatagramSendQueue(new DatagramOptions());
        queue.Enqueue(s_target, new byte[5]);

        Assert.That(queue.Close(), Is.True);

        Assert.That(queue.Close(), Is.False, "already closed");
        Assert.That((queue.IsClosed, queue.BytesPending), Is.EqualTo((true, 0L)), "the queued datagram is dropped");
        Assert.That(queue.Take(out _), Is.EqualTo(DatagramSendQueue.Step.End), "the loop ends");
        Assert.That(queue.Enqueue(s_target, new byte[1]), Is.EqualTo(EnqueueResult.Closed));
    }

    [Test]
    public void CloseWakesAParkedLoop()
    {
        var queue = new DatagramSendQueue(new DatagramOptions());
        Assert.That(queue.Take(out _), Is.EqualTo(DatagramSendQueue.Step.Park));
        var parked = queue.WaitAsync();

        queue.Close();

        Assert.That(parked.IsCompleted, Is.True, "the close wakes the parked loop to see it");
    }

    [Test]
    public async Task CloseEndsAWaitingFlush()
    {
        var queue = new DatagramSendQueue(new DatagramOptions());
        queue.Enqueue(s_target, new byte[1]);
        var flush = Task.Run(() => queue.Flush(TimeSpan.FromMinutes(5)));
        await Wait.Until(() => queue.IsClosing, "the flush has begun");

        queue.Close();

        await Wait.For(flush, "the flush returns when the queue closes under it");
    }
}
