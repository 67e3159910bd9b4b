using System;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using Microsoft.Extensions.Time.Testing;
using NUnit.Framework;
using NetCoreServer.Buffers;
using NetCoreServer.Engine;

namespace NetCoreServer.Tests.Engine;

/// <summary>The engine's large buffers are pooled during a burst and given back once it is over.</summary>
[TestFixture]
[NonParallelizable]
[Category(TestLeg.Isolated)]
public sealed class EngineBuffersTests
{
    [Test]
    public void SmallBuffersComeFromTheSharedPoolAndLargeOnesFromSizeClasses()
    {
        var small = EngineBuffers.Rent(1000);
        var large = EngineBuffers.Rent(200_000);
        Assert.That(small.Length, Is.LessThanOrEqualTo(EngineBuffers.SmallLimit));
        Assert.That(large.Length, Is.EqualTo(256 * 1024), "the smallest power of two that holds it");
        EngineBuffers.Return(small);
        EngineBuffers.Return(large);
        Assert.That(EngineBuffers.Rent(150_000), Is.SameAs(large), "a returned large buffer is reused during the burst");
    }

    [Test]
    public async Task LargeBuffersAreDroppedOnceNoneHasBeenRentedForTheIdleTime()
    {
        var buffers = new byte[4][];
        for (var i = 0; i < buffers.Length; i++)
            buffers[i] = EngineBuffers.Rent(1024 * 1024);
        foreach (var buffer in buffers)
            EngineBuffers.Return(buffer);
        Assert.That(EngineBuffers.PooledBytes, Is.GreaterThanOrEqualTo(4L * 1024 * 1024), "pooled while the burst may go on");

        // The first trim after the last rent may come early and keep them; one after the idle time (2 s) drops them.
        await Wait.Until(() => EngineBuffers.PooledBytes == 0, "a trim of the large pool after the idle time", TimeSpan.FromSeconds(30));
        Assert.That(EngineBuffers.PooledBytes, Is.EqualTo(0), "nothing kept after the burst");
    }

    [Test]
    public async Task LargeBuffersHeldPastTheIdleTimeAreDroppedOnceGivenBack()
    {
        // Connections whose peers do not read hold their send chunks for longer than the idle time: the trim that
        // comes meanwhile finds nothing to drop. What they give back when they close must still be dropped.
        var clock = new FakeTimeProvider();
        EngineBuffers.UseClock(clock);
        try
        {
            var buffers = new byte[8][];
            for (var i = 0; i < buffers.Length; i++)
                buffers[i] = EngineBuffers.Rent(2 * 1024 * 1024);
            Step(clock, EngineBuffers.IdleBeforeTrim + TimeSpan.FromSeconds(1.5));
            foreach (var buffer in buffers)
                EngineBuffers.Return(buffer);
            Assert.That(EngineBuffers.PooledBytes, Is.GreaterThanOrEqualTo(16L * 1024 * 1024), "pooled when given back");

            Step(clock, EngineBuffers.IdleBeforeTrim + TimeSpan.FromSeconds(1));
            // The ticks ran on this thread; the wait only covers a tick of the system clock's timer still under way at the switch.
            await Wait.Until(() => EngineBuffers.PooledBytes == 0, "a trim of the large pool after the buffers came back");
        }
        finally
        {
            EngineBuffers.UseClock(null);
        }
    }

    [Test]
    public async Task OneCollectionFollowsAFallOfBurstBytesOfSmallBuffersAndNoneASmallerFall()
    {
        // Issue 35: buffers of 64 KiB or less never counted, so 2.5 GB of them stayed after an attack.
        var clock = new FakeTimeProvider();
        EngineBuffers.UseClock(clock);
        try
        {
            var collections = EngineBuffers.Collections;
            var big = RentSmall(EngineBuffers.BurstBytes + 16 * MiB);
            Step(clock, TimeSpan.FromSeconds(1));
            await Wait.Until(() => EngineBuffers.PeakBytes >= EngineBuffers.HeldBytes && EngineBuffers.HeldBytes >= EngineBuffers.BurstBytes, "the trimmer seeing the buffers held");
            ReturnAll(big);
            Step(clock, EngineBuffers.SettleBeforeCollect + TimeSpan.FromSeconds(1.5));
            await Wait.Until(() => EngineBuffers.Collections > collections, "a collection once the buffers were given back");
            Assert.That(EngineBuffers.Collections, Is.EqualTo(collections + 1), "one collection for one burst");

            // Half the threshold: the garbage is not worth a blocking collection.
            var small = RentSmall(EngineBuffers.BurstBytes / 2);
            Step(clock, TimeSpan.FromSeconds(1));
            await Wait.Until(() => EngineBuffers.PeakBytes >= EngineBuffers.HeldBytes && EngineBuffers.HeldBytes >= EngineBuffers.BurstBytes / 2, "the trimmer seeing the buffers held");
            ReturnAll(small);
            Step(clock, EngineBuffers.SettleBeforeCollect + TimeSpan.FromSeconds(3));
            await Wait.Until(() => !EngineBuffers.Watching, "the trimmer stopping once nothing is left to watch");
            Assert.That(EngineBuffers.Collections, Is.EqualTo(collections + 1), "no collection after a smaller fall");
        }
        finally
        {
            EngineBuffers.UseClock(null);
        }
    }

    /// <summary>Advances the fake clock by half-second steps (the trimmer's period), so each step runs at most one tick, on this thread.</summary>
    private static void Step(FakeTimeProvider clock, TimeSpan span)
    {
        for (var moved = TimeSpan.Zero; moved < span; moved += TimeSpan.FromMilliseconds(500))
            clock.Advance(TimeSpan.FromMilliseconds(500));
    }

    private const long MiB = 1024 * 1024;

    private static byte[][] RentSmall(long bytes)
    {
        var buffers = new byte[(int)(bytes / EngineBuffers.SmallLimit)][];
        for (var i = 0; i < buffers.Length; i++)
            buffers[i] = EngineBuffers.Rent(EngineBuffers.SmallLimit);
        return buffers;
    }

    private static void ReturnAll(byte[][] buffers)
    {
        foreach (var buffer in buffers)
            EngineBuffers.Return(buffer);
    }
}
