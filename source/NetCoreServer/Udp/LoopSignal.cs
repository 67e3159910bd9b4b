using System;
using System.Threading.Tasks;
using System.Threading.Tasks.Sources;

namespace NetCoreServer.Udp;

/// <summary>
/// A reusable wake-up for a parked loop: the loop calls <see cref="Reset"/> before it publishes that it is parked,
/// then awaits <see cref="WaitAsync"/>; exactly one waker calls <see cref="Set"/>. The loop continues inline on the
/// waker's thread, as NetCoreServer's ReceiveAsync and SendAsync do, and parking costs no allocation.
/// </summary>
internal sealed class LoopSignal : IValueTaskSource
{
    private ManualResetValueTaskSourceCore<bool> _core;

    public LoopSignal() => _core.RunContinuationsAsynchronously = false;

    public void Reset() => _core.Reset();

    public void Set() => _core.SetResult(true);

    public ValueTask WaitAsync() => new(this, _core.Version);

    void IValueTaskSource.GetResult(short token) => _core.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags)
        => _core.OnCompleted(continuation, state, token, flags);
}
