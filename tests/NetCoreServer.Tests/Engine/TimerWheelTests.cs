using System;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Time.Testing;
using NetCoreServer.Engine;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.Engine;

/// <summary>The timer wheel alone: deadlines kept within a tick and never early, re-arming and cancelling, laps.</summary>
[TestFixture]
public sealed class TimerWheelTests
{
    /// <summary>An entry that completes a task (with the elapsed time since it was made) each time it expires.</summary>
    private sealed class Probe : TimerEntry
    {
        private readonly Stopwatch _clock = Stopwatch.StartNew();
        private int _expiries;

        public Probe(TimerWheel wheel)
            : base(wheel)
        {
        }

        public TaskCompletionSource<TimeSpan> Fired { get; private set; } = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public int Expiries => Volatile.Read(ref _expiries);

        public Action? OnExpired { get; set; }

        public void Restart()
        {
            _clock.Restart();
            Fired = new(TaskCreationOptions.RunContinuationsAsynchronously);
        }

        protected override void Expired()
        {
            Interlocked.Increment(ref _expiries);
            Fired.TrySetResult(_clock.Elapsed);
            OnExpired?.Invoke();
        }
    }

    [Test]
    public async Task AnEntryExpiresAtItsDeadlineNeverEarlier()
    {
        var wheel = new TimerWheel();
        var probe = new Probe(wheel);
        probe.Schedule(TimeSpan.FromMilliseconds(150));

        var elapsed = await Wait.For(probe.Fired.Task, "the entry's expiry");

        // Environment.TickCount64 may be a few milliseconds coarse; the wheel adds at most a tick.
        Assert.That(elapsed, Is.GreaterThanOrEqualTo(TimeSpan.FromMilliseconds(145)), "not before its deadline");
        Assert.That(wheel.Count, Is.Zero, "an expired entry leaves the wheel");
    }

    [Test]
    public async Task ReArmingMovesTheDeadlineAndACancelledEntryNeverExpires()
    {
        var wheel = new TimerWheel();
        var moved = new Probe(wheel);
        var cancelled = new Probe(wheel);
        moved.Schedule(TimeSpan.FromMilliseconds(50));
        cancelled.Schedule(TimeSpan.FromMilliseconds(50));
        moved.Schedule(TimeSpan.FromMilliseconds(400));
        cancelled.Cancel();

        var elapsed = await Wait.For(moved.Fired.Task, "the re-armed entry's expiry");

        Assert.That(elapsed, Is.GreaterThanOrEqualTo(TimeSpan.FromMilliseconds(395)), "at the later deadline");
        Assert.That(moved.Expiries, Is.EqualTo(1), "once");
        Assert.That(cancelled.Expiries, Is.Zero, "the cancelled entry did not expire");
    }

    [Test]
    public async Task AClosedEntryIgnoresLaterSchedules()
    {
        var wheel = new TimerWheel();
        var probe = new Probe(wheel);
        probe.Schedule(TimeSpan.FromMilliseconds(30));
        probe.Close();
        probe.Schedule(TimeSpan.FromMilliseconds(30));

        await Task.Delay(200);

        Assert.That(probe.Expiries, Is.Zero);
        Assert.That(wheel.Count, Is.Zero);
    }

    [Test]
    public async Task DeadlinesLapsAwayExpireInOrderAtTheirOwnTime()
    {
        // 1 ms ticks: a lap of the wheel is about a second, so these deadlines are up to two laps away.
        var wheel = new TimerWheel(TimeSpan.FromMilliseconds(1));
        var delays = new[] { 1700, 300, 1100, 2300, 40, 1024 };
        var probes = delays.Select(_ => new Probe(wheel)).ToArray();
        for (var i = 0; i < delays.Length; i++)
            probes[i].Schedule(TimeSpan.FromMilliseconds(delays[i]));

        var elapsed = await Wait.For(Task.WhenAll(probes.Select(p => p.Fired.Task)), "every entry's expiry");

        for (var i = 0; i < delays.Length; i++)
        {
            Assert.That(elapsed[i], Is.GreaterThanOrEqualTo(TimeSpan.FromMilliseconds(delays[i] - 5)), $"entry {i} not before {delays[i]} ms");
            Assert.That(probes[i].Expiries, Is.EqualTo(1), $"entry {i} expired once");
        }
    }

    [Test]
    public async Task AnEntryReArmedFromItsOwnCallbackKeepsTicking()
    {
        var wheel = new TimerWheel();
        var probe = new Probe(wheel);
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        probe.OnExpired = () =>
        {
            if (probe.Expiries < 5)
                probe.Schedule(TimeSpan.FromMilliseconds(20));
            else
                done.TrySetResult();
        };
        probe.Schedule(TimeSpan.FromMilliseconds(20));

        await Wait.For(done.Task, "five expiries");

        Assert.That(probe.Expiries, Is.EqualTo(5));
    }

    [Test]
    public async Task ManyEntriesFromManyThreadsEachExpireOnce()
    {
        var wheel = new TimerWheel();
        var expired = new ConcurrentDictionary<int, int>();
        var entries = Enumerable.Range(0, 2000)
            .Select(i => new CallbackTimer(wheel, s => expired.AddOrUpdate((int)s, 1, (_, n) => n + 1), i))
            .ToArray();

        Parallel.For(0, entries.Length, i =>
        {
            // Re-armed a few times each, some cancelled in the end.
            for (var r = 0; r < 5; r++)
                entries[i].Schedule(TimeSpan.FromMilliseconds(20 + (i * 7 + r * 13) % 300));
            if (i % 10 == 0)
                entries[i].Cancel();
        });

        var deadline = Stopwatch.StartNew();
        while (expired.Count < 1800 && deadline.Elapsed < TimeSpan.FromSeconds(30))
            await Task.Delay(50);
        await Task.Delay(100);

        Assert.That(expired.Keys.Order(), Is.EqualTo(Enumerable.Range(0, 2000).Where(i => i % 10 != 0)), "every armed entry expired, no cancelled one");
        Assert.That(expired.Values.All(n => n == 1), Is.True, "each once");
        Assert.That(wheel.Count, Is.Zero);
    }

    [Test]
    public async Task AnEntryKeptAliveFromManyThreadsExpiresOnceAfterItsLastDeadline()
    {
        // The keep-alive pattern: deadlines moved later and later (without the wheel's lock) while its ticks visit them.
        // The deadline leaves room for a loaded machine's stalls between two re-arms.
        const int deadline = 500;
        var wheel = new TimerWheel(TimeSpan.FromMilliseconds(1));
        var probes = Enumerable.Range(0, 64).Select(_ => new Probe(wheel)).ToArray();
        var lastArmed = new long[probes.Length];
        var clock = Stopwatch.StartNew();
        var expiredWhileKeptAlive = new int[2];
        await Task.WhenAll(Enumerable.Range(0, 2).Select(t => Task.Run(() =>
        {
            // Its own clock: a task that starts late on a busy pool still keeps its entries alive for as long.
            var own = Stopwatch.StartNew();
            while (own.ElapsedMilliseconds < 1500)
            {
                for (var i = t; i < probes.Length; i += 2)
                {
                    // Read before arming: a thread preempted in between would otherwise note a later time than it armed at.
                    var at = clock.ElapsedMilliseconds;
                    probes[i].Schedule(TimeSpan.FromMilliseconds(deadline));
                    Volatile.Write(ref lastArmed[i], at);
                }
            }
            for (var i = t; i < probes.Length; i += 2)
                expiredWhileKeptAlive[t] += probes[i].Expiries;
        })));
        Assert.That(expiredWhileKeptAlive, Is.All.Zero, "none expired while kept alive");

        var elapsed = await Wait.For(Task.WhenAll(probes.Select(p => p.Fired.Task)), "every entry's expiry");

        await Task.Delay(100);
        for (var i = 0; i < probes.Length; i++)
        {
            Assert.That(probes[i].Expiries, Is.EqualTo(1), $"entry {i} expired once");
            Assert.That(elapsed[i].TotalMilliseconds, Is.GreaterThanOrEqualTo(lastArmed[i] + deadline - 5), $"entry {i} not before its last deadline");
        }
    }

    [Test]
    public void ReArmingAnEntryAllocatesNothing()
    {
        var wheel = new TimerWheel();
        var entries = Enumerable.Range(0, 64).Select(_ => new Probe(wheel)).ToArray();
        foreach (var entry in entries)
            entry.Schedule(TimeSpan.FromSeconds(30));

        // Three measured rounds after one to warm up: a one-off allocation of the runtime (a lock inflated under another
        // test's load, a method promoted to its next tier) can land in one round; an allocation per re-arm lands in all.
        var rounds = new long[4];
        for (var round = 0; round < rounds.Length; round++)
        {
            var before = GC.GetAllocatedBytesForCurrentThread();
            for (var i = 0; i < 10_000; i++)
            {
                var entry = entries[i % entries.Length];
                entry.Schedule(TimeSpan.FromMilliseconds(30_000 + i % 5000));
                if (i % 3 == 0)
                    entry.Cancel();
            }
            rounds[round] = GC.GetAllocatedBytesForCurrentThread() - before;
        }
        var allocated = rounds.Skip(1).Min();
        foreach (var entry in entries)
            entry.Close();

        Assert.That(allocated, Is.Zero, $"bytes allocated per round of 10,000 re-arms: {string.Join(", ", rounds)}");
    }

    [Test]
    public async Task AWheelOnAFakeClockExpiresAnEntryOnceTheClockPassesItsDeadlineAndNotBefore()
    {
        var clock = new FakeTimeProvider();
        var wheel = new TimerWheel(default, clock);
        var probe = new Probe(wheel);
        probe.Schedule(TimeSpan.FromSeconds(30));

        // The advance runs the wheel's timer on this thread: an entry due by then is out of the wheel when it returns.
        clock.Advance(TimeSpan.FromSeconds(30) - TimeSpan.FromMilliseconds(1));
        Assert.That(wheel.Count, Is.EqualTo(1), "still armed 1 ms before its deadline");
        Assert.That(probe.Expiries, Is.Zero);

        clock.Advance(TimeSpan.FromMilliseconds(1) + wheel.Resolution);
        await Wait.For(probe.Fired.Task, "the expiry once the fake clock passed the deadline");
        Assert.That(probe.Expiries, Is.EqualTo(1));
        Assert.That(wheel.Count, Is.Zero);
    }

    [Test]
    public void ClientsOnTheSystemClockShareOneWheelAndEachOtherProviderHasItsOwn()
    {
        var clock = new FakeTimeProvider();

        Assert.That(TimerWheel.For(TimeProvider.System), Is.SameAs(TimerWheel.Shared));
        Assert.That(TimerWheel.For((TimeProvider?)null), Is.SameAs(TimerWheel.Shared));
        Assert.That(TimerWheel.For(clock), Is.SameAs(TimerWheel.For(clock)), "one wheel per provider");
        Assert.That(TimerWheel.For(clock), Is.Not.SameAs(TimerWheel.Shared));
        Assert.That(TimerWheel.For(clock).Time, Is.SameAs(clock));
    }
}
