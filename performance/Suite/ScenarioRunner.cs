using System;
using System.Collections.Generic;
using System.Linq;
using System.Text.Json;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.Suite;

/// <summary>
/// Runs one <see cref="Scenario"/>: starts its server as a process on a free endpoint, waits for it to listen, runs
/// the load client for the seconds asked, stops the server with SIGTERM, and turns what both printed into a row. Every
/// wait is bounded; a run that fails becomes a row with its <see cref="SuiteRow.Failure"/>, never a hang.
/// </summary>
internal sealed class ScenarioRunner(Layout layout, CPeers peers, NodeWs node, int seconds)
{
    /// <summary>Message size of every run, as in NetCoreServer's benchmarks.</summary>
    public const int Size = 32;

    private static readonly TimeSpan s_startTimeout = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan s_stopTimeout = TimeSpan.FromSeconds(10);

    // Connecting and disconnecting take at most 10 s each in our clients; start-up a few more.
    private TimeSpan ClientTimeout => TimeSpan.FromSeconds(seconds + 45);

    // A safety net: a server stops by itself even if the suite dies without stopping it.
    private int Lifetime => seconds + 120;

    /// <summary>Runs it; <paramref name="progress"/> gets the fraction of the measuring time that has passed.</summary>
    public async Task<SuiteRow> RunAsync(Scenario scenario, Action<double> progress)
    {
        if (scenario.Protocol.Has(ProtocolTraits.H2Load) && H2LoadClient.Find() is null)
            return RowBuilder.Failed(scenario, "skipped: h2load is not installed (apt-get install nghttp2-client)");
        var endpoint = Endpoint.For(scenario.Protocol);
        try
        {
            return await RunAsync(scenario, endpoint, progress).ConfigureAwait(false);
        }
        catch (Exception exception) when (exception is System.IO.IOException or InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            return RowBuilder.Failed(scenario, exception.Message);
        }
        finally
        {
            endpoint.Clean();
        }
    }

    private async Task<SuiteRow> RunAsync(Scenario scenario, Endpoint endpoint, Action<double> progress)
    {
        using var server = StartServer(scenario, endpoint);
        if (await server.WaitForLineAsync(line => line.Contains("listening on", StringComparison.Ordinal) || line.EndsWith(" ready", StringComparison.Ordinal), s_startTimeout).ConfigureAwait(false) is null)
            return RowBuilder.Failed(scenario, $"{scenario.ServerName} did not start within {s_startTimeout.TotalSeconds:0} s: {Tail(server)}");

        var cpuBefore = server.CpuSeconds();
        bool finished;
        string[] clientLines;
        int clientExit;
        using (var client = StartClient(scenario, endpoint))
        {
            var started = DateTime.UtcNow;
            var deadline = started + ClientTimeout;
            while (!client.Exited.IsCompleted && DateTime.UtcNow < deadline)
            {
                await Task.WhenAny(client.Exited, Task.Delay(250)).ConfigureAwait(false);
                progress(Math.Min(1.0, (DateTime.UtcNow - started).TotalSeconds / seconds));
            }
            finished = client.Exited.IsCompleted;
            client.Kill();
            clientLines = client.Lines;
            clientExit = finished ? client.ExitCode : -1;
        }
        var cpuAfter = server.CpuSeconds();
        var stoppedCleanly = await server.StopAsync(s_stopTimeout).ConfigureAwait(false);

        if (!finished)
            return RowBuilder.Failed(scenario, $"{scenario.LoadName} did not finish within {ClientTimeout.TotalSeconds:0} s");
        var json = scenario.Protocol.Has(ProtocolTraits.H2Load) ? H2LoadClient.ToJson(clientLines) : clientLines.LastOrDefault(line => line.StartsWith('{'));
        if (json is null)
            return RowBuilder.Failed(scenario, $"{scenario.LoadName} exited with code {clientExit} and printed no result: {string.Join(" | ", clientLines.TakeLast(5))}");
        if (scenario.CLoad && clientExit == 2)
            return RowBuilder.Failed(scenario, $"{scenario.LoadName} saw a corrupted echo");

        var stats = server.Lines.Where(line => line.StartsWith(Common.ProcessStats.Prefix, StringComparison.Ordinal)).ToArray();
        return RowBuilder.Measured(scenario, JsonDocument.Parse(json).RootElement, seconds,
            stoppedCleanly && stats.Length >= 2 ? (stats[0], stats[^1]) : null,
            cpuBefore is { } before && cpuAfter is { } after ? after - before : null);
    }

    private ChildProcess StartServer(Scenario scenario, Endpoint endpoint)
    {
        var protocol = scenario.Protocol;
        var multicast = scenario.Benchmark == Benchmark.Multicast;
        if (scenario.Server == Contender.C)
        {
            var name = multicast ? CPeers.MulticastServer : CPeers.EchoServer;
            var binary = peers[name] ?? throw new InvalidOperationException($"{name} is not built");
            List<string> cArguments = [.. endpoint.CServerArguments, "-z", Lifetime.ToString()];
            if (multicast)
                cArguments.AddRange(["-s", Size.ToString()]);
            return ChildProcess.Start(binary, [.. cArguments]);
        }

        if (scenario.Server == Contender.Kestrel)
            return ChildProcess.Start(Executables.Dotnet(), layout.Program("KestrelServer"), endpoint.Port.ToString(), protocol.KestrelProtocol,
                "--address", Endpoint.Address, "--lifetime", Lifetime.ToString());
        if (scenario.Server == Contender.NodeWs)
            return StartNodeWs(protocol, endpoint, multicast);

        var program = scenario.Server == Contender.Raw ? "RawEchoServer" : multicast ? "MulticastServer" : "EchoServer";
        List<string> arguments = [layout.Program(program), "--protocol", protocol.Transport, .. endpoint.DotnetArguments,
            "--lifetime", Lifetime.ToString(), "--stats"];
        arguments.AddRange(protocol.RuntimeOptions);
        if (scenario.Server == Contender.Ours)
            arguments.AddRange(protocol.ServerOptions);
        // The client counts messages as bytes divided by its -s, so the server must send that size.
        if (multicast)
            arguments.AddRange(["-s", Size.ToString()]);
        return ChildProcess.Start(Executables.Dotnet(), [.. arguments]);
    }

    private ChildProcess StartNodeWs(ProtocolEntry protocol, Endpoint endpoint, bool multicast)
    {
        if (node.Node is null || node.Modules is null)
            throw new InvalidOperationException($"node ws is not available: {node.Missing}");
        List<string> arguments = [layout.Script("ws-peer.js"), "--port", endpoint.Port.ToString(), "--address", Endpoint.Address,
            "--lifetime", Lifetime.ToString(), "--modules", node.Modules];
        if (protocol.Transport == "wss")
        {
            // The certificate our servers and Kestrel serve; our wss server, which runs first in the group, creates it.
            var pfx = System.IO.Path.Combine(layout.Root, "tools", "certificates", "server.pfx");
            if (!System.IO.File.Exists(pfx))
                throw new InvalidOperationException($"{pfx} is missing: run an ssl server of ours once to create it");
            arguments.AddRange(["--pfx", pfx, "--password", Common.DevelopmentTls.DefaultPassword]);
        }
        if (multicast)
            arguments.AddRange(["--multicast", Size.ToString()]);
        return ChildProcess.Start(node.Node, [.. arguments]);
    }

    private ChildProcess StartClient(Scenario scenario, Endpoint endpoint)
    {
        var echo = scenario.Benchmark == Benchmark.Echo;
        if (scenario.Protocol.Has(ProtocolTraits.H2Load))
            return ChildProcess.Start(H2LoadClient.Find() ?? throw new InvalidOperationException("h2load is not installed"), H2LoadClient.Arguments(scenario, endpoint, seconds));
        var common = new[] { "-c", scenario.Clients.ToString(), "-s", Size.ToString(), "-z", seconds.ToString() };
        var window = echo ? new[] { "-m", scenario.Protocol.EchoMessages.ToString() } : [];
        if (scenario.CLoad)
        {
            var name = echo ? CPeers.EchoLoad : CPeers.MulticastLoad;
            var binary = peers[name] ?? throw new InvalidOperationException($"{name} is not built");
            string[] upgrade = !echo && scenario.Protocol.Has(ProtocolTraits.CWsMulticastLoad) ? ["-w"] : [];
            return ChildProcess.Start(binary, [.. endpoint.CClientArguments, .. upgrade, .. common, .. window]);
        }
        var program = layout.Program(echo ? "EchoClient" : "MulticastClient");
        return ChildProcess.Start(Executables.Dotnet(), [program, "--protocol", scenario.Protocol.Transport, .. endpoint.DotnetArguments, .. common, .. window, "--json"]);
    }

    private static string Tail(ChildProcess process) => string.Join(" | ", process.Lines.TakeLast(5));
}
