using System;
using System.Threading;
using NetCoreServer.Testing;

namespace NetCoreServer.Tests.Support;

/// <summary>
/// Caps the thread pool at its minimum size and keeps every worker blocked until disposed, so nothing queued to the pool
/// meanwhile runs: no socket completion (on Linux the runtime delivers even the abort of a pending receive through the
/// pool), no timer, no continuation. That is the state a process reaches when its own code blocks pool threads faster
/// than the pool adds them. Process-wide: only for [NonParallelizable] tests, entered from a thread outside the pool.
/// </summary>
internal sealed class BlockedThreadPool : IDisposable
{
    // A free worker picks up a queued item within milliseconds; a blocker that has not started after this long is
    // queued behind workers someone else holds (the test host keeps one in a message loop).
    private static readonly TimeSpan s_startBound = TimeSpan.FromSeconds(1);

    // Blockers left queued: the pool runs queued items in order, so whatever is queued after them (I/O completions,
    // timers) waits behind them even when a worker held elsewhere comes free.
    private const int Plugs = 8;

    // Never disposed: a blocker may still be waking up when the test moves on.
    private readonly ManualResetEventSlim _release = new();
    private readonly int _maxWorkers;
    private readonly int _maxIo;

    public BlockedThreadPool()
    {
        if (Thread.CurrentThread.IsThreadPoolThread)
            throw new InvalidOperationException("Block the thread pool from a thread outside it (a synchronous test method), or the test waits for itself.");
        ThreadPool.GetMaxThreads(out _maxWorkers, out _maxIo);
        ThreadPool.GetMinThreads(out var minWorkers, out _);
        var workers = Math.Max(minWorkers, Environment.ProcessorCount);
        if (!ThreadPool.SetMaxThreads(workers, _maxIo))
            throw new InvalidOperationException($"the thread pool refused a maximum of {workers} workers");
        // One at a time: a blocker that does not start means every worker is taken.
        for (var blocked = 0; blocked < workers; blocked++)
        {
            if (!Block().Wait(s_startBound))
                break;
        }
        for (var i = 0; i < Plugs; i++)
            Block();
    }

    public void Dispose()
    {
        ThreadPool.SetMaxThreads(_maxWorkers, _maxIo);
        _release.Set();
    }

    /// <summary>Queues one blocker; the event is set once it runs.</summary>
    private ManualResetEventSlim Block()
    {
        var started = new ManualResetEventSlim();
        ThreadPool.UnsafeQueueUserWorkItem(static state =>
        {
            state.started.Set();
            state.release.Wait();
        }, (started, release: _release), preferLocal: false);
        return started;
    }
}
