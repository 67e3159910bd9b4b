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

    /// <inheritdoc />
    public override string? Validate()
    {
        if (Lifetime < 0)
            return $"the lifetime (--lifetime) must not be negative, not {Lifetime}";
        return base.Validate();
    }
}
