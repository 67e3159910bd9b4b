using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Engine;

/// <summary>
/// Writability: when the bytes waiting to be sent pass the high watermark the connection becomes unwritable and its
/// receive loop stops reading (the peer's TCP window then slows it) until they fall to the low watermark. Changes are
/// reported in order, one OnWritabilityChanged at a time; refused sends, and multicasts skipped by a slow consumer, are
/// reported once per episode (until the queue falls to the low watermark).
/// </summary>
/// <remarks>
/// A struct field of the <see cref="SendPipeline"/> (one object fewer per sending connection to touch); its flags are
/// written under the <see cref="SessionLock"/> and read without it.
/// </remarks>
internal struct Backpressure
{
    private readonly StreamSessionEngine _engine;
    private int _flags;

    public Backpressure(StreamSessionEngine engine) => _engine = engine;

    [System.Flags]
    private enum Flag
    {
        Unwritable = 1,
        Dirty = 2,
        ReportedUnwritable = 4,
        Notifying = 8,
        RefusalReported = 16,
        SlowConsumerReported = 32,
    }

    /// <summary>True while the pending bytes are above the high watermark (and not yet back at the low one).</summary>
    public bool Unwritable => Has(Flag.Unwritable);

    /// <summary>True the first time in an unwritable episode (or since the queue drained) that a refusal is to be reported.</summary>
    public bool TakeRefusalReport()
    {
        using var held = _engine.Enter();
        if (Has(Flag.RefusalReported))
            return false;
        Set(Flag.RefusalReported, true, held);
        return true;
    }

    /// <summary>True the first time since the queue last fell to the low watermark that a multicast skipped this session (a slow-consumer episode begins).</summary>
    public bool TakeSlowConsumerReport()
    {
        using var held = _engine.Enter();
        if (Has(Flag.SlowConsumerReported))
            return false;
        Set(Flag.SlowConsumerReported, true, held);
        return true;
    }

    /// <summary>After bytes were queued: crosses the high watermark upwards.</summary>
    public void Raise(long pending, SessionLock.Held held)
    {
        var high = _engine.Options.EffectiveHighWatermark;
        if (Unwritable || high <= 0 || pending <= high)
            return;
        Set(Flag.Unwritable, true, held);
        Set(Flag.Dirty, true, held);
    }

    /// <summary>After bytes were sent: crosses the low watermark downwards; returns the paused receive loop's wait to release.</summary>
    public TaskCompletionSource? Lower(long pending, SessionLock.Held held)
    {
        if (pending > _engine.Options.EffectiveLowWatermark)
            return null;
        Set(Flag.RefusalReported, false, held);
        Set(Flag.SlowConsumerReported, false, held);
        if (!Unwritable)
            return null;
        Set(Flag.Unwritable, false, held);
        Set(Flag.Dirty, true, held);
        return _engine.Receiver.TakePaused(held);
    }

    /// <summary>Raises OnWritabilityChanged until the reported state is the current one; one notifier at a time keeps the reports in order.</summary>
    public void Notify()
    {
        if (!Has(Flag.Dirty))
            return;
        while (true)
        {
            bool writable;
            using (var held = _engine.Enter())
            {
                if (Has(Flag.Notifying))
                    return;
                Set(Flag.Dirty, false, held);
                writable = !Unwritable;
                if (writable == !Has(Flag.ReportedUnwritable) || _engine.State != SessionState.Connected)
                    return;
                Set(Flag.ReportedUnwritable, !writable, held);
                Set(Flag.Notifying, true, held);
            }
            // Sending kind: a blocking Send from the hook must not wait on the send loop that may be raising it.
            _engine.RunHook(HookKind.Sending, writable, static (e, w) => e.Host.EngineWritabilityChanged(w));
            using (var held = _engine.Enter())
                Set(Flag.Notifying, false, held);
        }
    }

    private bool Has(Flag flag) => (Volatile.Read(ref _flags) & (int)flag) != 0;

    private void Set(Flag flag, bool value, SessionLock.Held held)
    {
        Volatile.Write(ref _flags, value ? _flags | (int)flag : _flags & ~(int)flag);
    }
}
