using System;
using System.Diagnostics;
using System.IO;

namespace NetCoreServer.Stress;

/// <summary>The process's resident memory, managed heap and open descriptors, as the scenarios report them.</summary>
internal readonly record struct ProcessProbe(long RssMiB, long HeapMiB, int Descriptors)
{
    public static ProcessProbe Now()
    {
        using var process = Process.GetCurrentProcess();
        var descriptors = Directory.Exists("/proc/self/fd") ? Directory.GetFiles("/proc/self/fd").Length : -1;
        return new ProcessProbe(process.WorkingSet64 >> 20, GC.GetTotalMemory(false) >> 20, descriptors);
    }

    public override string ToString() => $"rss {RssMiB} MiB, heap {HeapMiB} MiB, fds {Descriptors}";
}
