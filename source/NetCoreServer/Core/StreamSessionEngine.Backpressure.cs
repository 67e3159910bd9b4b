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
    private bool _unwritable;
    private volatile bool _writabilityDirty;
    private bool _reportedWritable = true;
    private bool _notifying;
    private bool _refusalReported;
    private TaskCompletionSource? _writable;

    /// <summary>False while the bytes waiting to be sent are above the high watermark (and not yet back at the low one).</summary>
    public bool IsWritable => !Volatile.Read(ref _unwritable);

    /// <summary>True while the receive loop holds back because the connection is unwritable.</summary>
    private bool ReadPaused => Volatile.Read(ref _unwritable) && _options.StopReadingWhenUnwritable;

    /// <summary>True the first time in an unwritable episode (or since the queue drained) that a refusal is to be reported.</summary>
    public bool TakeRefusalReport()
    {
        lock (this)
        {
            if (_refusalReported)
                return false;
            _refusalReported = true;
            return true;
        }
    }

    /// <summary>After bytes were queued: crosses the high watermark upwards.</summary>
    private void RaiseWatermarkLocked()
    {
        var high = _options.EffectiveHighWatermark;
        if (_unwritable || high <= 0 || QueuedBytes + SendingLocked <= high)
            return;
        _unwritable = true;
        _writabilityDirty = true;
    }

    /// <summary>After bytes were sent: crosses the low watermark downwards; returns the paused receive loop's wait to release.</summary>
    private TaskCompletionSource? LowerWatermarkLocked(long pending)
    {
        if (pending > _options.EffectiveLowWatermark)
            return null;
        _refusalReported = false;
        if (!_unwritable)
            return null;
        _unwritable = false;
        _writabilityDirty = true;
        var writable = _writable;
        _writable = null;
        return writable;
    }

    /// <summary>Releases a paused receive loop on close.</summary>
    private TaskCompletionSource? ReleasePausedLocked()
    {
        var writable = _writable;
        _writable = null;
        return writable;
    }

    /// <summary>The wait of a receive loop that must pause, or null when it may read.</summary>
    private Task? PauseReading()
    {
        if (!Volatile.Read(ref _unwritable))
            return null;
        lock (this)
        {
            if (!_unwritable || _closed || !_options.StopReadingWhenUnwritable)
                return null;
            return (_writable ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
        }
    }

    /// <summary>Raises OnWritabilityChanged until the reported state is the current one; one notifier at a time keeps the reports in order.</summary>
    private void NotifyWritability()
    {
        if (!_writabilityDirty)
            return;
        while (true)
        {
            bool writable;
            lock (this)
            {
                if (_notifying)
                    return;
                _writabilityDirty = false;
                writable = !_unwritable;
                if (writable == _reportedWritable || _state != (int)SessionState.Connected)
                    return;
                _reportedWritable = writable;
                _notifying = true;
            }
            // Sending kind: a blocking Send from the hook must not wait on the send loop that may be raising it.
            RunHook(HookKind.Sending, writable, static (e, w) => e._host.EngineWritabilityChanged(w));
            lock (this)
                _notifying = false;
        }
    }
}
