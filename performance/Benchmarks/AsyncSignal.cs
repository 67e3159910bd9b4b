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
    private ManualResetValueTaskSourceCore<bool> _core;

    /// <param name="inline">
    /// Run the waiter's continuation inside the hook that sets the signal. By default it runs on the thread pool, which
    /// for a waiter that is not an async method (BenchmarkDotNet blocking on a returned ValueTask) costs a work item
    /// allocated per wake-up; inline suits such a waiter, whose continuation only wakes a blocked thread.
    /// </param>
    public AsyncSignal(bool inline = false) => _core = new() { RunContinuationsAsynchronously = !inline };

    public void Reset() => _core.Reset();

    public void Set() => _core.SetResult(true);

    public ValueTask WaitAsync() => new(this, _core.Version);

    void IValueTaskSource.GetResult(short token) => _core.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _core.OnCompleted(continuation, state, token, flags);
}
