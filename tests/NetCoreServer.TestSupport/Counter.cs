using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Testing;

/// <summary>A count that hooks bump from any thread; tests await it reaching a target.</summary>
public sealed class Counter
{
    private readonly object _lock = new();
    private readonly List<(long Target, TaskCompletionSource Source)> _waiters = new();
    private long _value;

    /// <summary>The count now.</summary>
    public long Value => Interlocked.Read(ref _value);

    /// <summary>Adds <paramref name="delta"/> and releases the waiters whose target is reached.</summary>
    public void Add(long delta = 1)
    {
        List<TaskCompletionSource>? ready = null;
        lock (_lock)
        {
            _value += delta;
            for (var i = _waiters.Count - 1; i >= 0; i--)
            {
                if (_value >= _waiters[i].Target)
                {
                    (ready ??= new()).Add(_waiters[i].Source);
                    _waiters.RemoveAt(i);
                }
            }
        }
        // Completed outside the lock: continuations run asynchronously anyway, but never under our lock.
        ready?.ForEach(source => source.TrySetResult());
    }

    /// <summary>Completes when the count is at least <paramref name="target"/>.</summary>
    public Task Reaches(long target)
    {
        lock (_lock)
        {
            if (_value >= target)
                return Task.CompletedTask;
            var source = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            _waiters.Add((target, source));
            return source.Task;
        }
    }
}
