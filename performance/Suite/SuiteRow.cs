using System.Text.Json.Serialization;

namespace NetCoreServer.Performance.Suite;

/// <summary>The outcome of one run, as the table, the JSON and the chart show it.</summary>
internal sealed class SuiteRow
{
    [JsonPropertyName("benchmark")]
    public required string Benchmark { get; init; }

    [JsonPropertyName("protocol")]
    public required string Protocol { get; init; }

    [JsonPropertyName("clients")]
    public required int Clients { get; init; }

    /// <summary>ours, raw, c, kestrel or node-ws.</summary>
    [JsonPropertyName("server")]
    public required string Server { get; init; }

    [JsonPropertyName("server_name")]
    public required string ServerName { get; init; }

    [JsonPropertyName("load")]
    public required string Load { get; init; }

    [JsonPropertyName("messages_in_flight")]
    public int? MessagesInFlight { get; init; }

    [JsonPropertyName("size")]
    public required int Size { get; init; }

    [JsonPropertyName("seconds")]
    public double Seconds { get; init; }

    [JsonPropertyName("msg_per_s")]
    public double MessagesPerSecond { get; init; }

    [JsonPropertyName("mib_per_s")]
    public double MebibytesPerSecond { get; init; }

    [JsonPropertyName("total_messages")]
    public long TotalMessages { get; init; }

    [JsonPropertyName("errors")]
    public long Errors { get; init; }

    /// <summary>udp echo: datagrams the clients gave up waiting for.</summary>
    [JsonPropertyName("lost")]
    public long? Lost { get; init; }

    /// <summary>Managed bytes the server allocated from listening to stopped, per message; null for a C server.</summary>
    [JsonPropertyName("allocated_bytes_per_message")]
    public double? AllocatedBytesPerMessage { get; init; }

    /// <summary>Server CPU seconds (user + system) while the load client ran.</summary>
    [JsonPropertyName("server_cpu_seconds")]
    public double? ServerCpuSeconds { get; init; }

    /// <summary>Gen0 collections in the server from listening to stopped; null for a C server.</summary>
    [JsonPropertyName("server_gen0")]
    public int? ServerGen0 { get; init; }

    /// <summary>The server this row is compared with (see <see cref="Baselines"/>), when one ran in the same group.</summary>
    [JsonPropertyName("baseline")]
    public string? Baseline { get; set; }

    /// <summary>msg/s of this row divided by the baseline's.</summary>
    [JsonPropertyName("ratio")]
    public double? Ratio { get; set; }

    /// <summary>Why the run has no figures (it failed or could not run here); null after a measured run.</summary>
    [JsonPropertyName("failure")]
    public string? Failure { get; init; }

    [JsonIgnore]
    public bool Measured => Failure is null;

    [JsonIgnore]
    public string Group => $"{Benchmark} {Protocol} ×{Clients}";
}
