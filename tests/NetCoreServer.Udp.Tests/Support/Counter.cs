using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Udp.Tests.Support;

/// <summary>A count that hooks bump and tests await reaching a target.</summary>
internal sealed class Counter
{
    private readonly object _lock = new();
    private readonly List<(long Target, TaskCompletionSource Source)> _waiters = new();
    private long _value;

    public long Value => Interlocked.Read(ref _value);

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
        ready?.ForEach(s => s.TrySetResult());
    }

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
