using System;
using CommandLine;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>Options of the idle connections benchmark.</summary>
internal sealed class IdleOptions : IValidatedOptions
{
    /// <summary>The most connections asked for: two sockets each, in one process, within the usual descriptor limits.</summary>
    public const int MaximumConnections = 100_000;

    /// <summary>Protocol (<c>--protocol</c>): tcp or ssl; default tcp.</summary>
    [Option("protocol", Default = "tcp", HelpText = "Protocol: tcp or ssl.")]
    public string Protocol { get; set; } = "tcp";

    /// <summary>Connections to open (<c>-c</c>); default 1000.</summary>
    [Option('c', "connections", Default = 1000, HelpText = "Count of idle connections.")]
    public int Connections { get; set; } = 1000;

    /// <summary>Prints the result as one JSON line instead of the table (<c>--json</c>).</summary>
    [Option("json", Default = false, HelpText = "Print the result as one JSON line.")]
    public bool Json { get; set; }

    /// <summary>
    /// Measures one set of connections in this process and prints its JSON line (<c>--phase</c>); used by the program
    /// itself, which runs every set in a fresh process so that one set's freed memory cannot hide the next one's.
    /// </summary>
    [Option("phase", Hidden = true, HelpText = "Internal: measure one set (library, raw, raw-tls) in this process.")]
    public string? Phase { get; set; }

    /// <summary>
    /// Measures the server process alone (<c>--server-only</c>, tcp): the library's TcpServer and a raw Socket server,
    /// each in its own process, against the same plain-socket clients in this one, for <see cref="Rounds"/> rounds.
    /// </summary>
    [Option("server-only", Default = false, HelpText = "Measure the server process alone (tcp): TcpServer against a raw Socket server, alternating rounds.")]
    public bool ServerOnly { get; set; }

    /// <summary>Rounds of <c>--server-only</c> (<c>--rounds</c>); default 3.</summary>
    [Option("rounds", Default = 3, HelpText = "Rounds of --server-only, each measuring both servers, the order alternating.")]
    public int Rounds { get; set; } = 3;

    /// <summary>
    /// <c>--server-only</c>: the library's server serves its sessions from this many of the library's epoll event loops
    /// (<c>--event-loops</c>, OptionEventLoops; 0: the runtime's socket engine; default -1: the library's default). The raw server is unchanged.
    /// </summary>
    [Option("event-loops", Default = -1, HelpText = "With --server-only: the library's TcpServer serves its sessions from this many epoll event loops (OptionEventLoops; 0: the runtime's thread pool; -1, the default: the library's default); the raw server is unchanged.")]
    public int EventLoops { get; set; }

    /// <summary>Runs one server for <c>--server-only</c> in this process (<c>--serve library|raw</c>); used by the program itself.</summary>
    [Option("serve", Hidden = true, HelpText = "Internal: run one server (library, raw) for --server-only.")]
    public string? Serve { get; set; }

    /// <summary>True for ssl.</summary>
    public bool Tls => Protocol.Equals("ssl", StringComparison.OrdinalIgnoreCase);

    /// <inheritdoc />
    public string? Validate()
    {
        if (!Protocol.Equals("tcp", StringComparison.OrdinalIgnoreCase) && !Tls)
            return $"the protocol (--protocol) must be tcp or ssl, not '{Protocol}'";
        if (Connections is < 1 or > MaximumConnections)
            return $"the connection count (-c) must be between 1 and {MaximumConnections}, not {Connections}";
        if (EventLoops is < -1 or > 1024)
            return $"the event loops (--event-loops) must be -1 (the default) or 0 to 1024, not {EventLoops}";
        if (ServerOnly && Tls)
            return "--server-only measures tcp servers only";
        if (Rounds is < 1 or > 100)
            return $"the rounds (--rounds) must be between 1 and 100, not {Rounds}";
        if (Serve is not null && !ServerPhase.IsKnown(Serve))
            return $"unknown server '{Serve}'";
        if (Phase is not null && !ConnectionSets.IsKnown(Phase))
            return $"unknown phase '{Phase}'";
        return null;
    }
}
