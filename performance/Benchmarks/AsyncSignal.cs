using System;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// A reusable awaitable set from a hook: unlike a TaskCompletionSource per operation it allocates nothing, so the
/// memory diagnoser sees only what the library allocates. One waiter at a time; <see cref="Reset"/> before each use,
/// <see cref="Set"/> once per use.
/// </summary>
internal sealed class AsyncSignal : IValueTaskSource
{
    // Continuations run on the thread pool, not inline inside the hook that sets the signal.
    private ManualResetValueTaskSourceCore<bool> _core = new() { RunContinuationsAsynchronously = true };

    public void Reset() => _core.Reset();

    public void Set() => _core.SetResult(true);

    public ValueTask WaitAsync() => new(this, _core.Version);

    void IValueTaskSource.GetResult(short token) => _core.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _core.OnCompleted(continuation, state, token, flags);
}
