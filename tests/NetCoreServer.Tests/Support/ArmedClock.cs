using System;
using System.Collections.Concurrent;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Time.Testing;

namespace NetCoreServer.Tests.Support;

/// <summary>
/// A <see cref="FakeTimeProvider"/> that tells when a timer is armed for a given delay, so that a test advances the
/// clock only once the timeout it means to fire is running (a timeout armed after the advance counts from the new time).
/// </summary>
internal sealed class ArmedClock : FakeTimeProvider
{
    private readonly ConcurrentDictionary<TimeSpan, TaskCompletionSource> _armed = new();

    /// <summary>Completes once a timer of this clock has been armed (made or changed) with <paramref name="due"/>.</summary>
    public Task WhenArmed(TimeSpan due) => Slot(due).Task;

    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        var timer = new Reporting(base.CreateTimer(callback, state, dueTime, period), this);
        timer.Report(dueTime);
        return timer;
    }

    private TaskCompletionSource Slot(TimeSpan due) => _armed.GetOrAdd(due, static _ => new(TaskCreationOptions.RunContinuationsAsynchronously));

    private sealed class Reporting(ITimer inner, ArmedClock clock) : ITimer
    {
        public void Report(TimeSpan due)
        {
            if (due != Timeout.InfiniteTimeSpan)
                clock.Slot(due).TrySetResult();
        }

        public bool Change(TimeSpan dueTime, TimeSpan period)
        {
            var changed = inner.Change(dueTime, period);
            Report(dueTime);
            return changed;
        }

        public void Dispose() => inner.Dispose();

        public ValueTask DisposeAsync() => inner.DisposeAsync();
    }
}
