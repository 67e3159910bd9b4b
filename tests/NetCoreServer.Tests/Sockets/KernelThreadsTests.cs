using System;
using System.Threading;
using NetCoreServer.Transports;
using NUnit.Framework;

namespace NetCoreServer.Tests.Sockets;

/// <summary>The watchdog's look at a loop thread's state: runnable (computing or preempted) or waiting in the kernel.</summary>
[TestFixture]
public sealed class KernelThreadsTests
{
    [SetUp]
    public void LinuxOnly()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("/proc is Linux only");
    }

    /// <summary>Runs <paramref name="body"/> on a thread of its own and returns that thread's kernel id once it has started.</summary>
    private static (Thread Thread, int Tid) Start(Action body)
    {
        var tid = 0;
        using var started = new ManualResetEventSlim();
        var thread = new Thread(() =>
        {
            Volatile.Write(ref tid, EpollNative.gettid());
            started.Set();
            body();
        }) { IsBackground = true };
        thread.Start();
        Assert.That(started.Wait(TimeSpan.FromSeconds(10)), Is.True, "the thread started");
        return (thread, Volatile.Read(ref tid));
    }

    [Test]
    public void AThreadThatWaitsIsNotRunnableAndOneThatComputesIs()
    {
        using var release = new ManualResetEventSlim();
        var (waiter, waiting) = Start(() => release.Wait(TimeSpan.FromSeconds(30)));
        var stop = 0;
        var (spinner, spinning) = Start(() =>
        {
            var until = Environment.TickCount64 + 30_000;
            while (Volatile.Read(ref stop) == 0 && Environment.TickCount64 < until)
                Thread.SpinWait(100);
        });
        try
        {
            // A waiter spins a little before it sleeps in the kernel: look until it does (bounded).
            var deadline = Environment.TickCount64 + 10_000;
            while (KernelThreads.IsRunnable(waiting) && Environment.TickCount64 < deadline)
                Thread.Sleep(10);
            Assert.That(KernelThreads.IsRunnable(waiting), Is.False, "a thread waiting on an event sleeps (state S)");
            Assert.That(KernelThreads.IsRunnable(spinning), Is.True, "a thread that computes is running or runnable (state R)");
            Assert.That(KernelThreads.IsRunnable(EpollNative.gettid()), Is.True, "the calling thread itself runs");
        }
        finally
        {
            release.Set();
            Volatile.Write(ref stop, 1);
            waiter.Join();
            spinner.Join();
        }
        Assert.That(KernelThreads.IsRunnable(0), Is.False, "no thread");
        Assert.That(KernelThreads.IsRunnable(int.MaxValue), Is.False, "a thread that does not exist");
    }
}
