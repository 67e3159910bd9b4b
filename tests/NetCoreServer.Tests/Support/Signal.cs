using System;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Tests.Support;

/// <summary>A condition over a counter that hooks bump; tests await the value reaching a target.</summary>
internal sealed class Counter
{
    private readonly object _lock = new();
    private long _value;
    private (long Target, TaskCompletionSource Source)[] _waiters = Array.Empty<(long, TaskCompletionSource)>();

    public long Value => Interlocked.Read(ref _value);

    public void Add(long delta)
    {
        (long, TaskCompletionSource)[] waiters;
        long value;
        lock (_lock)
        {
            value = _value += delta;
            waiters = _waiters;
        }
        foreach (var (target, source) in waiters)
        {
            if (value >= target)
                source.TrySetResult();
        }
    }

    public Task Reaches(long target)
    {
        lock (_lock)
        {
            if (_value >= target)
                return Task.CompletedTask;
            var source = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            var waiters = new (long, TaskCompletionSource)[_waiters.Length + 1];
            _waiters.CopyTo(waiters, 0);
            waiters[^1] = (target, source);
            _waiters = waiters;
            return source.Task;
        }
    }
}
