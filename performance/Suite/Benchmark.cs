namespace NetCoreServer.Performance.Suite;

/// <summary>The names of the two benchmarks, as the command line, the JSON and the table spell them.</summary>
internal static class Benchmark
{
    /// <summary>Each client sends messages and the server sends every byte back.</summary>
    public const string Echo = "echo";

    /// <summary>The server sends one stream of messages to every client.</summary>
    public const string Multicast = "multicast";
}
