using System;

namespace NetCoreServer;

/// <summary>Runs an exit action when disposed: the base of <see cref="ReadLock"/> and <see cref="WriteLock"/> (NetCoreServer's helpers).</summary>
public class DisposableLock : IDisposable
{
    private Action? _exitLock;

    /// <summary>Creates a lock guard that runs <paramref name="exitLock"/> on the first <see cref="Dispose"/>.</summary>
    /// <param name="exitLock">What releases the lock.</param>
    public DisposableLock(Action exitLock)
    {
        ArgumentNullException.ThrowIfNull(exitLock);
        _exitLock = exitLock;
    }

    /// <summary>Runs the exit action; later calls do nothing, so a double dispose cannot release the lock twice.</summary>
    public void Dispose()
    {
        System.Threading.Interlocked.Exchange(ref _exitLock, null)?.Invoke();
        GC.SuppressFinalize(this);
    }
}
