using System;
using System.Net.Sockets;
using System.Runtime.InteropServices;

namespace NetCoreServer.Connections;

/// <summary>
/// The process's descriptor limit (RLIMIT_NOFILE) and where an accepted socket stands against it. Linux hands out the
/// lowest free descriptor, so an accepted socket numbered N proves N descriptors below it are all in use: a cheap,
/// exact test of "the process is within the reserve" that counts every descriptor, not just the server's own.
/// </summary>
internal static class Descriptors
{
    private const int RlimitNofile = 7;

    private static readonly long s_limit = ReadLimit();

    /// <summary>The soft descriptor limit of this process (the runtime raises it to the hard limit at start); 0 when unknown.</summary>
    public static long Limit => s_limit;

    /// <summary>The descriptor number of <paramref name="socket"/>; -1 where the platform has no such number.</summary>
    public static long Number(Socket socket)
    {
        if (!OperatingSystem.IsLinux())
            return -1;
        try
        {
            return (long)socket.SafeHandle.DangerousGetHandle();
        }
        catch (ObjectDisposedException)
        {
            return -1;
        }
    }

    private static long ReadLimit()
    {
        if (!OperatingSystem.IsLinux())
            return 0;
        try
        {
            return GetRLimit(RlimitNofile, out var limit) == 0 ? (long)Math.Min(limit.Current, long.MaxValue) : 0;
        }
        catch (Exception exception) when (exception is DllNotFoundException or EntryPointNotFoundException)
        {
            return 0;
        }
    }

    [DllImport("libc", EntryPoint = "getrlimit")]
    private static extern int GetRLimit(int resource, out RLimit limit);

    [StructLayout(LayoutKind.Sequential)]
    private struct RLimit
    {
        public ulong Current;
        public ulong Maximum;
    }
}
