using System.Collections.Generic;
using System.Threading.Tasks;

namespace NetCoreServer.Engine;

/// <summary>
/// The sends a caller waits for (blocking sends, flushes), in order: each completes once the connection has sent its
/// target total of bytes, or fails when the connection ends first. Not thread-safe: the session lock guards it.
/// </summary>
internal sealed class SendWaiters
{
    private readonly Queue<(TaskCompletionSource<bool> Waiter, long Target)> _waiters = new();

    /// <summary>A wait that completes once <paramref name="target"/> bytes have been sent in total.</summary>
    public Task<bool> AddLocked(long target)
    {
        var waiter = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        _waiters.Enqueue((waiter, target));
        return waiter.Task;
    }

    /// <summary>Takes the waits that <paramref name="sent"/> bytes complete, to be completed outside the lock.</summary>
    public TaskCompletionSource<bool>[]? TakeCompletedLocked(long sent)
    {
        var count = 0;
        foreach (var (_, target) in _waiters)
        {
            if (target > sent)
                break;
            count++;
        }
        if (count == 0)
            return null;
        var done = new TaskCompletionSource<bool>[count];
        for (var i = 0; i < count; i++)
            done[i] = _waiters.Dequeue().Waiter;
        return done;
    }

    /// <summary>Takes every wait, to be failed outside the lock (the connection ended).</summary>
    public TaskCompletionSource<bool>[]? TakeAllLocked()
    {
        if (_waiters.Count == 0)
            return null;
        var all = new TaskCompletionSource<bool>[_waiters.Count];
        for (var i = 0; i < all.Length; i++)
            all[i] = _waiters.Dequeue().Waiter;
        return all;
    }

    /// <summary>Completes what <see cref="TakeCompletedLocked"/> or <see cref="TakeAllLocked"/> took.</summary>
    public static void Complete(TaskCompletionSource<bool>[]? waits, bool delivered)
    {
        if (waits == null)
            return;
        foreach (var wait in waits)
            wait.TrySetResult(delivered);
    }
}
