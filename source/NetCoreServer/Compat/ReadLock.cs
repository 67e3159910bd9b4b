using System.Threading;

namespace NetCoreServer;

/// <summary>Holds a read lock of a <see cref="ReaderWriterLockSlim"/> from construction until disposed: <c>using (new ReadLock(rw)) { … }</c>.</summary>
public class ReadLock : DisposableLock
{
    /// <summary>Enters the read lock (blocking until it is granted).</summary>
    /// <param name="locker">The lock.</param>
    public ReadLock(ReaderWriterLockSlim locker)
        : base(locker.ExitReadLock)
        => locker.EnterReadLock();
}
