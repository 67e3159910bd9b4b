using System.Runtime.InteropServices;

namespace NetCoreServer.Performance.Suite;

/// <summary>The one system call .NET does not offer: sending SIGTERM, so that a server stops cleanly and reports.</summary>
internal static partial class Native
{
    /// <summary>SIGTERM's number on Linux.</summary>
    public const int SigTerm = 15;

    /// <summary>kill(2): 0 when the signal was sent.</summary>
    [LibraryImport("libc", EntryPoint = "kill", SetLastError = true)]
    public static partial int Kill(int pid, int signal);
}
