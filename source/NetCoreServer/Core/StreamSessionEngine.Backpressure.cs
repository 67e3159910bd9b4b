using System;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Core;

/// <summary>
/// Backpressure: when the bytes waiting to be sent pass the high watermark the connection becomes unwritable and its
/// receive loop stops reading (the peer's own TCP window then slows it down) until they fall to the low watermark. An
/// echo or a proxy whose peer sends fast and never reads thus loses nothing and holds at most a watermark's worth of
/// memory, instead of filling the send limit and refusing data. Writability changes are reported in order, one hook at
/// a time, by whichever thread holds the notifier role; refused sends are reported once per unwritable episode.
/// </summary>
internal sealed partial class StreamSessionEngine
{
    /// <summary>False while the bytes waiting to be sent are above the high watermark (and not yet back at the low one).</summary>
    public bool IsWritable => !Unwritable;

    // Set by the protocol (HoldReceiving), under the lock; read without it on the receive loop's fast path.
    private bool _receiveHeld;

    /// <summary>True while the receive loop holds back because the connection is unwritable.</summary>
    private bool ReadPaused => Unwritable && Options.StopReadingWhenUnwritable;

    /// <summary>True the first time in an unwritable episode (or since the queue drained) that a refusal is to be reported.</summary>
    public bool TakeRefusalReport()
    {
        lock (this)
        {
            if (RefusalReported)
                return false;
            RefusalReported = true;
            return true;
        }
    }

    /// <summary>After bytes were queued: crosses the high watermark upwards.</summary>
    private void RaiseWatermarkLocked()
    {
        var high = Options.EffectiveHighWatermark;
        if (Unwritable || high <= 0 || QueuedBytes + SendingLocked <= high)
            return;
        Unwritable = true;
        WritabilityDirty = true;
    }

    /// <summary>After bytes were sent: crosses the low watermark downwards; returns the paused receive loop's wait to release.</summary>
    private TaskCompletionSource? LowerWatermarkLocked(long pending)
    {
        if (pending > Options.EffectiveLowWatermark)
            return null;
        RefusalReported = false;
        if (!Unwritable)
            return null;
        Unwritable = false;
        WritabilityDirty = true;
        return TakeWritableLocked();
    }

    /// <summary>The wait of a paused receive loop, taken to be released (writable again, or closed); null when none waits.</summary>
    private TaskCompletionSource? TakeWritableLocked()
    {
        var writable = _side?.Writable;
        if (writable != null)
            _side!.Writable = null;
        return writable;
    }

    /// <summary>The wait of a receive loop that must pause, or null when it may read.</summary>
    private Task? PauseReading()
    {
        if (!Unwritable && !Volatile.Read(ref _receiveHeld))
            return null;
        lock (this)
        {
            if (Closed || (!_receiveHeld && (!Unwritable || !Options.StopReadingWhenUnwritable)))
                return null;
            return (Side.Writable ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
        }
    }

    /// <summary>
    /// Called by the protocol from inside its receive call: hand it nothing more, and read nothing more, until
    /// <see cref="ReleaseReceiving"/>. What it left unconsumed is handed to it again then, before any new read (the
    /// peer may have sent all it will send and now waits for answers). HTTP holds while its answers wait to be sent,
    /// so that a client pipelining requests and reading slowly cannot make the server queue answer after answer.
    /// </summary>
    public void HoldReceiving()
    {
        lock (this)
            _receiveHeld = true;
        // The receive loop's own field: this runs on the loop, inside Deliver.
        _redeliver = true;
    }

    /// <summary>Ends a <see cref="HoldReceiving"/> (any thread): the receive loop hands over what it kept, then reads again.</summary>
    public void ReleaseReceiving()
    {
        TaskCompletionSource? paused = null;
        lock (this)
        {
            if (!_receiveHeld)
                return;
            _receiveHeld = false;
            if (!ReadPaused)
                paused = TakeWritableLocked();
        }
        paused?.TrySetResult();
    }

    /// <summary>Raises OnWritabilityChanged until the reported state is the current one; one notifier at a time keeps the reports in order.</summary>
    private void NotifyWritability()
    {
        if (!WritabilityDirty)
            return;
        while (true)
        {
            bool writable;
            lock (this)
            {
                if (Notifying)
                    return;
                WritabilityDirty = false;
                writable = !Unwritable;
                if (writable == ReportedWritable || State != SessionState.Connected)
                    return;
                ReportedWritable = writable;
                Notifying = true;
            }
            // Sending kind: a blocking Send from the hook must not wait on the send loop that may be raising it.
            RunHook(HookKind.Sending, writable, static (e, w) => e._host.EngineWritabilityChanged(w));
            lock (this)
                Notifying = false;
        }
    }
}
