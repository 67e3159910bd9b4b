using System;
using System.IO;

namespace NetCoreServer.Transports;

/// <summary>
/// What the kernel says of one of this process's threads, from <c>/proc/self/task/TID/stat</c>: the watchdog's way to
/// tell a loop thread that waits (blocked in the kernel) from one that runs or waits only for a CPU.
/// </summary>
internal static class KernelThreads
{
    /// <summary>
    /// True when thread <paramref name="tid"/> is running or runnable (state R): busy, or preempted on a loaded machine,
    /// not blocked. False when it sleeps or waits (S, D, ...) or its state cannot be read.
    /// </summary>
    public static bool IsRunnable(int tid)
    {
        if (tid <= 0)
            return false;
        Span<byte> stat = stackalloc byte[512];
        int length;
        try
        {
            using var handle = File.OpenHandle($"/proc/self/task/{tid}/stat");
            length = RandomAccess.Read(handle, stat, 0);
        }
        catch (IOException)
        {
            return false;
        }
        catch (UnauthorizedAccessException)
        {
            return false;
        }
        // "TID (name) S ...": the name may hold spaces and parentheses, so the state follows the last ')'.
        var close = stat[..length].LastIndexOf((byte)')');
        return close >= 0 && close + 2 < length && stat[close + 2] == (byte)'R';
    }
}
