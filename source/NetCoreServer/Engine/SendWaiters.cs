using System.Collections.Generic;
using System.Threading.Tasks;

namespace NetCoreServer.Engine;

/// <summary>
/// The sends a caller waits for (blocking sends, flushes), in order: each completes once the connection has sent its
/// target total of bytes, or fails when the connection ends first. Not thread-safe: each call takes the session lock's proof.
/// </summary>
internal sealed class SendWaiters
{
    private readonly Queue<(TaskCompletionSource<bool> Waiter, long Target)> _waiters = new();

    /// <summary>A wait that completes once <paramref name="target"/> bytes have been sent in total.</summary>
    public Task<bool> Add(long target, SessionLock.Held held)
    {
        var waiter = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        _waiters.Enqueue((waiter, target));
        return waiter.Task;
    }

    /// <summary>Takes the waits that <paramref name="sent"/> bytes complete, to be completed outside the lock.</summary>
    public TaskCompletionSource<bool>[]? TakeCompleted(long sent, SessionLock.Held held)
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
    public TaskCompletionSource<bool>[]? TakeAll(SessionLock.Held held)
    {
        if (_waiters.Count == 0)
            return null;
        var all = new TaskCompletionSource<bool>[_waiters.Count];
        for (var i = 0; i < all.Length; i++)
            all[i] = _waiters.Dequeue().Waiter;
        return all;
    }

    /// <summary>Completes what <see cref="TakeCompleted"/> or <see cref="TakeAll"/> took.</summary>
    public static void Complete(TaskCompletionSource<bool>[]? waits, bool delivered)
    {
        if (waits == null)
            return;
        foreach (var wait in waits)
            wait.TrySetResult(delivered);
    }
}
