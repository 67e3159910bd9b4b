using System;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Transports;

namespace NetCoreServer.Engine;

/// <summary>
/// The sender role of a <see cref="SendPipeline"/> and the loop that holds it: one sender at a time (this loop, or a
/// blocking send writing directly), one batch at a time to the transport, parked while a send is pending, and
/// OnEmpty when the queue runs dry. A synchronous completion loops, never recurses.
/// </summary>
/// <remarks>
/// Made with its pipeline. Its role bits are written under the <see cref="SessionLock"/> (each setter takes the
/// proof) and <see cref="IsRunning"/> is read without it: a multicast's wake-up looks at it per session per message,
/// which is why the running bit is stored in the engine's <see cref="LifecycleFlags"/> (only this type writes it).
/// The queue and its accounting are the pipeline's; this type takes its batches from it.
/// </remarks>
internal sealed class SendLoop : IThreadPoolWorkItem
{
    private readonly SendPipeline _pipeline;
    private readonly StreamSessionEngine _engine;
    private int _flags;
    // OnEmpty hooks running: the engine does not finish under one.
    private short _emptyRaising;

    public SendLoop(SendPipeline pipeline, StreamSessionEngine engine)
    {
        _pipeline = pipeline;
        _engine = engine;
    }

    [Flags]
    private enum Flag
    {
        // The loop waits in a transport call, or for the pool to run it.
        Parked = 1,
    }

    /// <summary>
    /// The sender role is taken (by this loop, or by a blocking send writing directly); read without the lock. Kept in
    /// the engine's lifecycle word, not here: the multicast wake-up reads it per session per message, and a field of
    /// this object costs that loop two more objects' lines, one rewritten at every park (docs/design/engine.md).
    /// </summary>
    public bool IsRunning => _engine.SenderRunning;

    /// <summary>Nothing here holds a finish back: no sender, or it waits in a transport call, and no OnEmpty runs.</summary>
    public bool IsQuiescent(SessionLock.Held held) => (!IsRunning || Has(Flag.Parked)) && _emptyRaising == 0;

    /// <summary>Takes the sender role when it is free and the transport is ready and open; the caller then sends (<see cref="Run"/>).</summary>
    public bool TryTake(SessionLock.Held held)
    {
        if (IsRunning || !_engine.Ready || _engine.Closed)
            return false;
        _engine.SetSenderRunning(true, held);
        return true;
    }

    /// <summary>Gives the role up after a failed send.</summary>
    public void Release(SessionLock.Held held) => _engine.SetSenderRunning(false, held);

    /// <summary>
    /// Takes the role for a run on the thread pool (<see cref="RunOnPool"/>), parked until it starts: a close need not
    /// wait for it. The caller has checked that the role is free.
    /// </summary>
    public void TakeForPool(SessionLock.Held held)
    {
        _engine.SetSenderRunning(true, held);
        Set(Flag.Parked, true, held);
    }

    /// <summary>Runs the loop on the thread pool, not inline (a multicasting thread does not send for every session).</summary>
    public void RunOnPool() => ThreadPool.UnsafeQueueUserWorkItem(this, preferLocal: false);

    void IThreadPoolWorkItem.Execute()
    {
        Unpark();
        Run();
    }

    /// <summary>
    /// The sender role is held: sends batches until the queue is empty or the connection closes. Runs inline until the
    /// first send that does not complete synchronously, then on the completion thread.
    /// </summary>
    public void Run() => _ = RunAsync();

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask RunAsync()
    {
        var transport = _engine.Transport;
        while (NextBatchOrStop())
        {
            var send = transport.SendAsync(_pipeline.Queue.Batch!.Views);
            var result = await (send.IsCompleted ? send : ParkedAsync(send)).ConfigureAwait(false);
            if (!_pipeline.CompleteSend(result, direct: false))
                return;
        }
    }

    /// <summary>Takes the next batch (true), or gives up the sender role (false): then OnEmpty, a pending shutdown, or teardown.</summary>
    private bool NextBatchOrStop()
    {
        bool closed, empty;
        using (var held = _engine.Enter())
        {
            closed = _engine.Closed;
            if (!closed && TakeBatch(held))
                return true;
            EndBatch(held);
            _engine.SetSenderRunning(false, held);
            if (!closed && TakeBatchPublishedMeanwhile(held))
            {
                _engine.SetSenderRunning(true, held);
                return true;
            }
            // Counted until the hook returns: with the sender role given up, a disconnect could otherwise finish,
            // OnDisconnected included, between the check and OnEmpty.
            empty = !closed && _engine.State == SessionState.Connected;
            if (empty)
                _emptyRaising++;
        }
        if (closed)
        {
            _engine.TryFinish();
        }
        else if (empty)
        {
            _engine.RunHook(HookKind.Sending, 0, static (e, _) => e.Host.EngineEmpty());
            using (var held = _engine.Enter())
                _emptyRaising--;
            _engine.TryFinish();
        }
        else
        {
            _engine.BeginShutdownIfDrained();
        }
        return false;
    }

    /// <summary>Awaits a transport send that did not complete at once, parked meanwhile (a close need not wait for it).</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<IoResult> ParkedAsync(ValueTask<IoResult> pending)
    {
        Park();
        try
        {
            return await pending.ConfigureAwait(false);
        }
        finally
        {
            Unpark();
        }
    }

    private void Park()
    {
        bool closed;
        using (var held = _engine.Enter())
        {
            Set(Flag.Parked, true, held);
            closed = _engine.Closed;
        }
        if (closed)
            _engine.TryFinish();
    }

    private void Unpark()
    {
        using var held = _engine.Enter();
        Set(Flag.Parked, false, held);
    }

    private bool Has(Flag flag) => (Volatile.Read(ref _flags) & (int)flag) != 0;

    private void Set(Flag flag, bool value, SessionLock.Held held)
    {
        Volatile.Write(ref _flags, value ? _flags | (int)flag : _flags & ~(int)flag);
    }

    /// <summary>Moves staged and published messages in, then takes the batch to send (what is left of the last one, else the next); false when there is none.</summary>
    private bool TakeBatch(SessionLock.Held held)
    {
        _pipeline.Materialize(held, adding: false);
        var queue = _pipeline.Queue;
        var batch = queue.Batch ??= new InFlightBatch();
        if (batch.Count == 0 && !queue.TakeBatch(batch))
            return false;
        queue.Sending = batch.Bytes;
        return true;
    }

    /// <summary>
    /// Having just given up the sender role: a multicast publishes, fences, then looks at the role; it saw the loop
    /// running, and this look after the same fence sees its message, or it saw it stopped and wakes it itself.
    /// </summary>
    private bool TakeBatchPublishedMeanwhile(SessionLock.Held held)
    {
        if (!_engine.Cursor.IsAttached)
            return false;
        Interlocked.MemoryBarrier();
        return TakeBatch(held);
    }

    /// <summary>Nothing is in flight any more.</summary>
    public void EndBatch(SessionLock.Held held)
    {
        var queue = _pipeline.Queue;
        queue.Batch?.Clear();
        queue.Sending = 0;
    }
}
