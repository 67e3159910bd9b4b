using System;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Tests.Support;

/// <summary>
/// Holds a session hook (each time it runs) until the test releases it, to widen a window on purpose: the test awaits
/// <see cref="Entered"/>, acts from its own thread, then calls <see cref="Release"/>. The hook logs NAME-end when it
/// returns, so a test can check what happened after it.
/// </summary>
internal sealed class HookGate : IDisposable
{
    private readonly string _hook;
    private readonly TaskCompletionSource<TestSession> _entered = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly ManualResetEventSlim _release = new();

    public HookGate(string hook) => _hook = hook;

    /// <summary>Completes with the session when the hook first runs.</summary>
    public Task<TestSession> Entered => _entered.Task;

    public void Release() => _release.Set();

    /// <summary>For <see cref="TestServer.OnSessionHook"/>.</summary>
    public void Run(TestSession session, string hook)
    {
        if (hook != _hook)
            return;
        _entered.TrySetResult(session);
        _release.Wait(Wait.Default);
        session.Log.Add(_hook + "-end");
    }

    public void Dispose() => _release.Dispose();
}
