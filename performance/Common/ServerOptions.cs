using CommandLine;

namespace NetCoreServer.Performance.Common;

/// <summary>Options of a benchmark server.</summary>
public class ServerOptions : EndpointOptions
{
    /// <summary>
    /// Stops the server by itself after this many seconds (<c>--lifetime</c>); default 0, which runs until Ctrl+C or SIGTERM.
    /// A safety net for scripts: a server whose script died without stopping it still goes away.
    /// </summary>
    [Option("lifetime", Default = 0, HelpText = "Stop by itself after this many seconds (0 = run until Ctrl+C or SIGTERM).")]
    public int Lifetime { get; set; }

    /// <summary>
    /// The server's PKCS#12 certificate for ssl (<c>--cert</c>); default null, which means <c>tools/certificates/server.pfx</c>
    /// of the repository, created when missing (see <see cref="DevelopmentTls.LoadServerCertificate"/>). A file given must exist.
    /// </summary>
    [Option("cert", HelpText = "ssl: the server certificate, a PKCS#12 file (default: tools/certificates/server.pfx of the repository, created when missing).")]
    public string? Certificate { get; set; }

    /// <summary>The password of <see cref="Certificate"/> (<c>--password</c>); default qwerty, the development certificates' password.</summary>
    [Option("password", Default = DevelopmentTls.DefaultPassword, HelpText = "ssl: the certificate's password.")]
    public string Password { get; set; } = DevelopmentTls.DefaultPassword;

    /// <summary>
    /// Prints a <c>stats</c> JSON line of this process's totals so far (see <see cref="ProcessStats"/>: managed bytes
    /// allocated, CPU seconds, collections, working set, thread-pool work items and threads) after the "listening" line, once a second, and after "stopped"
    /// (<c>--stats</c>; default off), so a harness can tell what a load window cost (use DOTNET_gcServer=0 for exact
    /// per-process allocation counters).
    /// </summary>
    [Option("stats", Default = false, HelpText = "Print a 'stats' JSON line (allocated bytes, CPU seconds, collections, working set, thread-pool work items and threads) when listening, once a second, and when stopped.")]
    public bool Stats { get; set; }

    /// <summary>
    /// Runs socket completions inline on the runtime's socket engine threads (<c>--inline-completions</c>; default off)
    /// by setting <c>DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1</c> for this process before its first socket. Hooks
    /// then run on those threads: saves a thread-pool hand-off per completion, but a hook that blocks stalls every
    /// connection served by that engine thread (see docs/guides/event-loops.md).
    /// </summary>
    [Option("inline-completions", Default = false, HelpText = "Run socket completions and hooks on the socket engine threads (DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS=1): fewer thread hand-offs, but a blocking hook stalls other connections.")]
    public bool InlineCompletions { get; set; }

    /// <summary>
    /// How many socket engine threads the runtime runs (<c>--socket-threads</c>; default 0, the runtime's choice: one, or
    /// one per core with inline completions), by setting <c>DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT</c> for this process
    /// before its first socket. With inline completions these threads run the hooks, so 1 makes a single-threaded
    /// server, like a C epoll server with one loop (see docs/guides/event-loops.md).
    /// </summary>
    [Option("socket-threads", Default = 0, HelpText = "Socket engine threads of the runtime (DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT); 0 leaves the runtime's choice (with --inline-completions, one per core).")]
    public int SocketThreads { get; set; }

    /// <summary>
    /// Serves the sessions of the stream protocols (tcp, ssl, uds, http, https, ws, wss) from this many of the library's own epoll event loops
    /// (<c>--event-loops</c>, the servers' <c>OptionEventLoops</c>; 0: the runtime's socket engine and thread pool; default
    /// -1: the library's default, one loop per core on Linux). Hooks then run on the loops' threads (see docs/guides/event-loops.md).
    /// </summary>
    [Option("event-loops", Default = -1, HelpText = "Stream protocols: serve sessions from this many of the library's own epoll event loops (OptionEventLoops; Linux); 0: the runtime's socket engine and thread pool; -1 (default): the library's default, one loop per core on Linux.")]
    public int EventLoops { get; set; }

    /// <summary>
    /// udp: serves the socket from a thread of its own with blocking calls (<c>--receive-thread</c>, the library's
    /// <c>OptionReceiveThread</c>; default off) instead of through the runtime's socket engine.
    /// </summary>
    [Option("receive-thread", Default = false, HelpText = "udp: receive (and send) on a thread of the socket's own with blocking calls (OptionReceiveThread) instead of the runtime's socket engine.")]
    public bool ReceiveThread { get; set; }

    /// <inheritdoc />
    public override string? Validate()
    {
        if (Lifetime < 0)
            return $"the lifetime (--lifetime) must not be negative, not {Lifetime}";
        if (SocketThreads is < 0 or > 1024)
            return $"the socket engine threads (--socket-threads) must be 0 to 1024, not {SocketThreads}";
        if (EventLoops is < -1 or > 1024)
            return $"the event loops (--event-loops) must be -1 (the default) or 0 to 1024, not {EventLoops}";
        if (Certificate is not null && string.IsNullOrWhiteSpace(Certificate))
            return "the certificate path (--cert) must not be empty";
        return base.Validate();
    }
}
