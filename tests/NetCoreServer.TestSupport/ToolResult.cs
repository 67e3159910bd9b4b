namespace NetCoreServer.Testing;

/// <summary>How an external program ended: exit code, standard output (as UTF-8 text and as bytes) and standard error.</summary>
/// <param name="ExitCode">The process exit code.</param>
/// <param name="Output">Standard output decoded as UTF-8.</param>
/// <param name="Error">Standard error.</param>
public sealed record ToolResult(int ExitCode, string Output, string Error)
{
    /// <summary>Standard output exactly as written.</summary>
    public byte[] OutputBytes { get; init; } = [];

    /// <summary>For assertion messages.</summary>
    public override string ToString() => $"exit {ExitCode}; stdout: {Output}; stderr: {Error}";
}
