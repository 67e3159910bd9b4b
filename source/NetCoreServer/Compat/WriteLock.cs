using System.Threading;

namespace NetCoreServer;

/// <summary>Holds the write lock of a <see cref="ReaderWriterLockSlim"/> from construction until disposed: <c>using (new WriteLock(rw)) { … }</c>.</summary>
public class WriteLock : DisposableLock
{
    /// <summary>Enters the write lock (blocking until it is granted).</summary>
    /// <param name="locker">The lock.</param>
    public WriteLock(ReaderWriterLockSlim locker)
        : base(locker.ExitWriteLock)
        => locker.EnterWriteLock();
}
