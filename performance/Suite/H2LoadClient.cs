using System;
using System.Globalization;
using System.Linq;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace NetCoreServer.Performance.Suite;

/// <summary>
/// h2load (Debian's nghttp2-client) as the load client of the HTTP/2 rows: each of the clients is one connection that
/// keeps the protocol's messages in flight as concurrent streams of <c>GET /fixed</c>, for the seconds asked after a
/// one-second warm-up; its summary becomes the JSON line our clients print (a request and its answer count as a message).
/// </summary>
internal static partial class H2LoadClient
{
    /// <summary>The load generator's name in the table.</summary>
    public const string Name = "h2load";

    /// <summary>Its path on PATH, or null when nghttp2-client is not installed.</summary>
    public static string? Find() => Executables.Find(Name);

    /// <summary>The command line of one run: -c clients, -m streams each, one thread (the server gets the other core).</summary>
    public static string[] Arguments(Scenario scenario, Endpoint endpoint, int seconds)
    {
        var scheme = scenario.Protocol.Transport == "http" ? "http" : "https";
        return ["-c", scenario.Clients.ToString(CultureInfo.InvariantCulture), "-m", scenario.Protocol.EchoMessages.ToString(CultureInfo.InvariantCulture),
            "-t", "1", "--warm-up-time", "1", "-D", seconds.ToString(CultureInfo.InvariantCulture), $"{scheme}://{Endpoint.Address}:{endpoint.Port}/fixed"];
    }

    /// <summary>
    /// The JSON line for h2load's summary (msg_per_s, mib_per_s, total_messages, errors, seconds), or null when it
    /// printed none or negotiated no HTTP/2 (an h2 run that fell back to HTTP/1.1 is no HTTP/2 figure).
    /// </summary>
    public static string? ToJson(string[] lines)
    {
        var finished = lines.Select(line => FinishedLine().Match(line)).FirstOrDefault(match => match.Success);
        var requests = lines.Select(line => RequestsLine().Match(line)).FirstOrDefault(match => match.Success);
        var protocol = lines.FirstOrDefault(line => line.StartsWith("Application protocol:", StringComparison.Ordinal));
        if (finished is null || requests is null || protocol is null || !protocol.Contains("h2", StringComparison.Ordinal))
            return null;
        double Number(Match match, string group) => double.Parse(match.Groups[group].Value, CultureInfo.InvariantCulture);
        var bytesPerSecond = Number(finished, "rate") * finished.Groups["unit"].Value switch
        {
            "KB" => 1024.0,
            "MB" => 1024.0 * 1024,
            "GB" => 1024.0 * 1024 * 1024,
            _ => 1.0,
        };
        return JsonSerializer.Serialize(new
        {
            msg_per_s = Number(finished, "requests"),
            mib_per_s = Math.Round(bytesPerSecond / (1024 * 1024), 3),
            total_messages = (long)Number(requests, "succeeded"),
            errors = (long)(Number(requests, "failed") + Number(requests, "errored") + Number(requests, "timeout")),
            seconds = Number(finished, "seconds"),
        });
    }

    // "finished in 3.00s, 53210.33 req/s, 1.93MB/s"
    [GeneratedRegex(@"^finished in (?<seconds>[0-9.]+)s, (?<requests>[0-9.]+) req/s, (?<rate>[0-9.]+)(?<unit>[KMG]?B)/s")]
    private static partial Regex FinishedLine();

    // "requests: 159631 total, 159731 started, 159631 done, 159631 succeeded, 0 failed, 0 errored, 0 timeout"
    [GeneratedRegex(@"^requests: \d+ total, \d+ started, \d+ done, (?<succeeded>\d+) succeeded, (?<failed>\d+) failed, (?<errored>\d+) errored, (?<timeout>\d+) timeout")]
    private static partial Regex RequestsLine();
}
