using System.Collections.Generic;
using System.Linq;
using CommandLine;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.Suite;

/// <summary>The suite's command line.</summary>
internal sealed class SuiteOptions : IValidatedOptions
{
    /// <summary>The longest run the suite accepts, so that a typo cannot make it run for hours.</summary>
    public const int MaxSeconds = 600;

    [Option('z', "seconds", Default = 3, HelpText = "Seconds each benchmark run measures (quick by default).")]
    public int Seconds { get; set; } = 3;

    [Option("protocol", Separator = ',', HelpText = "Protocols to run, comma-separated (default: all of tcp, framed, ssl, uds, udp, udp-thread, tcp-inline, uds-inline, tcp-loops, uds-loops, tcp-pool, http, https, http-pool, https-pool, h2c, h2, ws, wss; framed is tcp with 4-byte length-prefixed messages on both sides; udp-thread is udp with our server's OptionReceiveThread; tcp-inline and uds-inline run the .NET servers with inline socket completions on one socket engine thread; tcp-loops and uds-loops serve our sessions from one of the library's epoll event loops (OptionEventLoops = 1); tcp-pool, http-pool and https-pool from the runtime's thread pool (OptionEventLoops = 0); the others on the library's default, a loop per core on Linux; h2c (HTTP/2 with prior knowledge) and h2 (over TLS by ALPN) are driven by h2load, from nghttp2-client, with GET /fixed and 10 streams per connection).")]
    public IEnumerable<string> Protocols { get; set; } = [];

    [Option("scenario", Separator = ',', HelpText = "Benchmarks to run, comma-separated: echo, multicast (default: both).")]
    public IEnumerable<string> Scenarios { get; set; } = [];

    [Option('c', "clients", Separator = ',', HelpText = "Client counts, comma-separated (default: 1,100).")]
    public IEnumerable<int> Clients { get; set; } = [];

    [Option("load", Default = "dotnet", HelpText = "Load generator for tcp and uds, and for ws multicast: dotnet (EchoClient, MulticastClient) or c (echo_load, mcast_load from the peers folder, built with cc; mcast_load -w upgrades to WebSocket).")]
    public string Load { get; set; } = "dotnet";

    [Option("out", HelpText = "Folder for suite.json, suite.md and suite.png (default: artifacts/suite of the repository).")]
    public string? Out { get; set; }

    [Option("peers", HelpText = "Folder with the C peers' sources (echo_epoll.c, mcast_epoll.c, echo_load.c, mcast_load.c), built with cc when it is installed (default: performance/peers of the repository).")]
    public string? Peers { get; set; }

    [Option("no-baselines", Default = false, HelpText = "Run only our servers: no raw .NET, C reference, Kestrel (http, https, h2c, h2) or node ws (ws, wss, installed with npm into the output folder) server.")]
    public bool NoBaselines { get; set; }

    /// <summary>Set by the suite when it runs itself inside a private network namespace: rows go to stdout as JSON lines.</summary>
    [Option("inside-namespace", Default = false, Hidden = true)]
    public bool InsideNamespace { get; set; }

    /// <summary>The chosen protocols, lower case; every known one when none was given.</summary>
    public IReadOnlyList<string> ChosenProtocols => Protocols.Any()
        ? Protocols.Select(name => name.ToLowerInvariant()).Distinct().ToArray()
        : ProtocolTable.All.Select(entry => entry.Name).ToArray();

    /// <summary>The chosen benchmarks; both when none was given.</summary>
    public IReadOnlyList<string> ChosenScenarios => Scenarios.Any()
        ? Scenarios.Select(name => name.ToLowerInvariant()).Distinct().ToArray()
        : [Benchmark.Echo, Benchmark.Multicast];

    /// <summary>The chosen client counts; 1 and 100 when none was given.</summary>
    public IReadOnlyList<int> ChosenClients => Clients.Any() ? Clients.Distinct().ToArray() : [1, 100];

    /// <summary>True when the C load clients replace the .NET ones where they can.</summary>
    public bool CLoad => Load == "c";

    public string? Validate()
    {
        if (Seconds is < 1 or > MaxSeconds)
            return $"the seconds per run (-z) must be between 1 and {MaxSeconds}, not {Seconds}";
        if (ChosenProtocols.FirstOrDefault(name => ProtocolTable.Find(name) is null) is { } unknown)
            return $"unknown protocol '{unknown}'; the suite knows {string.Join(", ", ProtocolTable.All.Select(entry => entry.Name))}";
        if (ChosenScenarios.FirstOrDefault(name => name is not (Benchmark.Echo or Benchmark.Multicast)) is { } scenario)
            return $"unknown scenario '{scenario}'; the suite knows {Benchmark.Echo} and {Benchmark.Multicast}";
        if (ChosenClients.Select(count => (int?)count).FirstOrDefault(count => count is < 1 or > 1000) is { } clients)
            return $"a client count (-c) must be between 1 and 1000, not {clients}";
        if (Load is not ("dotnet" or "c"))
            return $"the load generator (--load) is dotnet or c, not '{Load}'";
        if (Out is not null && string.IsNullOrWhiteSpace(Out))
            return "the output folder (--out) must not be empty";
        return null;
    }
}
