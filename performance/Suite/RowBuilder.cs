using System;
using System.Text.Json;

namespace NetCoreServer.Performance.Suite;

/// <summary>Makes a <see cref="SuiteRow"/> from a client's JSON line and the server's figures, or from a failure.</summary>
internal static class RowBuilder
{
    /// <summary>A row without figures, saying why.</summary>
    public static SuiteRow Failed(Scenario scenario, string why) => new()
    {
        Benchmark = scenario.Benchmark,
        Protocol = scenario.Protocol.Name,
        Clients = scenario.Clients,
        Server = Key(scenario.Server),
        ServerName = scenario.ServerName,
        Load = scenario.LoadName,
        Size = ScenarioRunner.Size,
        Failure = why,
    };

    /// <summary>
    /// A measured row: the client's figures (our clients' and the C clients' JSON share msg_per_s, mib_per_s,
    /// total_messages and errors), the server's allocations between its two stats lines divided by the messages, and
    /// its CPU seconds while the client ran.
    /// </summary>
    public static SuiteRow Measured(Scenario scenario, JsonElement client, int seconds, (string First, string Last)? stats, double? cpuSeconds)
    {
        var messages = client.GetProperty("total_messages").GetDouble();
        double? allocated = null;
        int? gen0 = null;
        if (stats is var (first, last))
        {
            var before = JsonDocument.Parse(first[Common.ProcessStats.Prefix.Length..]).RootElement;
            var after = JsonDocument.Parse(last[Common.ProcessStats.Prefix.Length..]).RootElement;
            var bytes = after.GetProperty("allocated_bytes").GetInt64() - before.GetProperty("allocated_bytes").GetInt64();
            allocated = messages > 0 ? Math.Round(bytes / messages, 2) : null;
            gen0 = after.GetProperty("gen0").GetInt32() - before.GetProperty("gen0").GetInt32();
        }
        return new SuiteRow
        {
            Benchmark = scenario.Benchmark,
            Protocol = scenario.Protocol.Name,
            Clients = scenario.Clients,
            Server = Key(scenario.Server),
            ServerName = scenario.ServerName,
            Load = scenario.LoadName,
            MessagesInFlight = scenario.Benchmark == Benchmark.Echo ? scenario.Protocol.EchoMessages : null,
            Size = ScenarioRunner.Size,
            Seconds = client.TryGetProperty("seconds", out var measured) ? measured.GetDouble() : seconds,
            MessagesPerSecond = client.GetProperty("msg_per_s").GetDouble(),
            MebibytesPerSecond = client.GetProperty("mib_per_s").GetDouble(),
            TotalMessages = (long)messages,
            Errors = client.GetProperty("errors").GetInt64(),
            Lost = client.TryGetProperty("lost", out var lost) ? lost.GetInt64() : null,
            AllocatedBytesPerMessage = allocated,
            ServerGen0 = gen0,
            ServerCpuSeconds = cpuSeconds is { } cpu ? Math.Round(cpu, 2) : null,
        };
    }

    /// <summary>The server's key in the JSON: ours, raw, c, kestrel or node-ws.</summary>
    public static string Key(Contender contender) => contender == Contender.NodeWs ? "node-ws" : contender.ToString().ToLowerInvariant();
}
