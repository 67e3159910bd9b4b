using System;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using BenchmarkDotNet.Attributes;
using NetCoreServer.Engine;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// What a connection pays to move its timeout: re-arming an entry of the server's <see cref="TimerWheel"/> against
/// <see cref="Timer.Change(long, long)"/> on a timer of its own (what each HTTP and WebSocket connection did before),
/// and arming then cancelling (a head timeout that the request's end disarms). <see cref="Connections"/> entries or
/// timers with keep-alive deadlines about two minutes away, re-armed in turn from <see cref="Threads"/> threads; the
/// figure is per operation.
/// </summary>
[MemoryDiagnoser]
public class TimerWheelBenchmarks
{
    private const int Connections = 4096;

    private TimerWheel _wheel = null!;
    private CallbackTimer[] _entries = [];
    private Timer[] _timers = [];
    private TimeSpan[] _dues = [];

    /// <summary>Threads re-arming at once (each its own share of the connections).</summary>
    [Params(1, 2)]
    public int Threads { get; set; }

    /// <summary>Makes the entries and timers armed once, and checks that an entry expires.</summary>
    [GlobalSetup]
    public void Setup()
    {
        var fired = new ManualResetEventSlim();
        var probe = new CallbackTimer(new TimerWheel(), static s => ((ManualResetEventSlim)s).Set(), fired);
        probe.Schedule(TimeSpan.FromMilliseconds(20));
        if (!fired.Wait(TimeSpan.FromSeconds(10)))
            throw new InvalidOperationException("a wheel entry armed for 20 ms did not expire within 10 s");

        _wheel = new TimerWheel();
        _entries = Enumerable.Range(0, Connections).Select(_ => new CallbackTimer(_wheel, static _ => { }, _wheel)).ToArray();
        _timers = Enumerable.Range(0, Connections).Select(_ => new Timer(static _ => { }, null, Timeout.Infinite, Timeout.Infinite)).ToArray();
        _dues = Enumerable.Range(0, Connections).Select(i => TimeSpan.FromMilliseconds(120_000 + i * 7 % 1000)).ToArray();
        for (var i = 0; i < Connections; i++)
        {
            _entries[i].Schedule(_dues[i]);
            _timers[i].Change(_dues[i], Timeout.InfiniteTimeSpan);
        }
    }

    /// <summary>Closes the entries and disposes the timers.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        foreach (var entry in _entries)
            entry.Close();
        foreach (var timer in _timers)
            timer.Dispose();
    }

    /// <summary>Moves each entry's deadline (the keep-alive clock restarted by a request).</summary>
    [Benchmark(OperationsPerInvoke = Connections)]
    public void WheelReschedule() => Run(static (b, i) => b._entries[i].Schedule(b._dues[(i + 1) % Connections]));

    /// <summary>The same with a timer per connection.</summary>
    [Benchmark(OperationsPerInvoke = Connections, Baseline = true)]
    public void TimerChange() => Run(static (b, i) => b._timers[i].Change(b._dues[(i + 1) % Connections], Timeout.InfiniteTimeSpan));

    /// <summary>Arms a short deadline and cancels it (a head timeout disarmed when the head ends), then restores the long one.</summary>
    [Benchmark(OperationsPerInvoke = Connections)]
    public void WheelScheduleCancel() => Run(static (b, i) =>
    {
        var entry = b._entries[i];
        entry.Schedule(TimeSpan.FromSeconds(30));
        entry.Cancel();
        entry.Schedule(b._dues[i]);
    });

    /// <summary>The same with a timer per connection.</summary>
    [Benchmark(OperationsPerInvoke = Connections)]
    public void TimerChangeDisarm() => Run(static (b, i) =>
    {
        var timer = b._timers[i];
        timer.Change(TimeSpan.FromSeconds(30), Timeout.InfiniteTimeSpan);
        timer.Change(Timeout.Infinite, Timeout.Infinite);
        timer.Change(b._dues[i], Timeout.InfiniteTimeSpan);
    });

    private void Run(Action<TimerWheelBenchmarks, int> operation)
    {
        if (Threads == 1)
        {
            for (var i = 0; i < Connections; i++)
                operation(this, i);
            return;
        }
        var share = Connections / Threads;
        Parallel.For(0, Threads, new ParallelOptions { MaxDegreeOfParallelism = Threads }, t =>
        {
            for (var i = t * share; i < (t + 1) * share; i++)
                operation(this, i);
        });
    }
}
