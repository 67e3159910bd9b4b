using System;
using System.Diagnostics;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>The process's managed heap and working set at one moment, taken after a full garbage collection.</summary>
/// <param name="ManagedBytes">Bytes of live managed objects (<see cref="GC.GetTotalMemory"/> after collecting).</param>
/// <param name="WorkingSetBytes">Resident memory of the process, native allocations included (kernel socket buffers are not).</param>
internal readonly record struct MemorySnapshot(long ManagedBytes, long WorkingSetBytes)
{
    /// <summary>Collects (full, compacting, finalizers run, free memory given back to the system), then reads both figures.</summary>
    public static MemorySnapshot Take()
    {
        // Aggressive also decommits what the heap no longer needs, so that the working set follows live memory
        // rather than what earlier garbage left committed.
        GC.Collect(2, GCCollectionMode.Aggressive, blocking: true, compacting: true);
        GC.WaitForPendingFinalizers();
        GC.Collect(2, GCCollectionMode.Aggressive, blocking: true, compacting: true);
        var managed = GC.GetTotalMemory(forceFullCollection: true);
        using var process = Process.GetCurrentProcess();
        return new MemorySnapshot(managed, process.WorkingSet64);
    }
}
