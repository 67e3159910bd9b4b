using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace NetCoreServer.Performance.Suite;

/// <summary>What one suite run found: the rows with their settings, the machine and the date; written as JSON and Markdown.</summary>
internal sealed class SuiteReport
{
    private static readonly JsonSerializerOptions s_json = new() { WriteIndented = true, DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull };

    [JsonPropertyName("date")]
    public required DateTime Date { get; init; }

    [JsonPropertyName("machine")]
    public required string Machine { get; init; }

    [JsonPropertyName("seconds_per_run")]
    public required int Seconds { get; init; }

    [JsonPropertyName("size")]
    public int Size => ScenarioRunner.Size;

    [JsonPropertyName("rows")]
    public required IReadOnlyList<SuiteRow> Rows { get; init; }

    /// <summary>Processor count, OS and runtime, for the heading.</summary>
    public static string DescribeMachine()
        => $"{Environment.ProcessorCount} cores, {RuntimeInformation.OSDescription}, .NET {Environment.Version}";

    /// <summary>The report as indented JSON.</summary>
    public string ToJson() => JsonSerializer.Serialize(this, s_json);

    /// <summary>The report as a Markdown table with a heading line and the notes that explain the columns.</summary>
    public string ToMarkdown(string? chart)
    {
        var text = new StringBuilder();
        text.AppendLine($"Measured {Date:yyyy-MM-dd HH:mm} UTC on {Machine}; {Seconds} s per run, {Size}-byte messages, loopback.");
        text.AppendLine();
        if (chart is not null)
        {
            text.AppendLine($"![msg/s per scenario]({chart})");
            text.AppendLine();
        }
        text.AppendLine("| " + string.Join(" | ", Format.Columns) + " |");
        text.AppendLine("|" + string.Join("|", Format.Columns.Select((_, i) => i is >= 3 and <= 7 ? "---:" : "---")) + "|");
        foreach (var row in Rows)
            text.AppendLine("| " + string.Join(" | ", Format.Cells(row).Select(cell => cell.Replace("|", "\\|", StringComparison.Ordinal))) + " |");
        text.AppendLine();
        text.AppendLine(Notes);
        return text.ToString();
    }

    /// <summary>Writes suite.json and suite.md into <paramref name="folder"/>.</summary>
    public void Write(string folder, string? chartFile)
    {
        File.WriteAllText(Path.Combine(folder, "suite.json"), ToJson());
        File.WriteAllText(Path.Combine(folder, "suite.md"), ToMarkdown(chartFile is null ? null : Path.GetFileName(chartFile)));
    }

    /// <summary>What the columns mean.</summary>
    public const string Notes =
        "Echo: every client keeps its window of messages in flight (1000 over tcp, ssl and uds, 1000 length-prefixed messages over framed, 1000 binary messages over ws and wss, 10 datagrams over udp, "
        + "100 pipelined TRACE requests over http and https; over h2c and h2, h2load's GET /fixed with 10 concurrent streams per "
        + "connection, a request and its answer counting as a message). Multicast: the server sends one stream to every client; msg/s "
        + "is summed over the clients. alloc B/msg: managed bytes the server allocated from listening to stopped (connecting "
        + "and disconnecting included) per message. Server CPU s: user and system time of the server process while the load "
        + "ran. vs baseline: msg/s against the fastest peer of the same row group that ran (the C epoll reference of "
        + "performance/peers, Kestrel over http, https, h2c, h2, ws and wss echo, the npm ws package's server over ws and wss), else the raw .NET "
        + "Socket server (SslStream over it for ssl; its own row is against C), with the same load client, minutes apart. udp multicast runs in a private network namespace. "
        + "udp-thread: udp with our server's OptionReceiveThread (the socket served by a thread of its own). "
        + "tcp-inline, uds-inline: both .NET servers with the runtime's inline socket completions on one socket engine thread "
        + "(--inline-completions --socket-threads 1). Our servers run on the library's default engine (a loop per core on Linux). "
        + "tcp-loops, uds-loops: our sessions on one of the library's own epoll event loops (OptionEventLoops = 1, --event-loops 1), "
        + "the raw server as in tcp-inline. tcp-pool, http-pool, https-pool: our sessions on the runtime's thread pool (--event-loops 0).";
}
