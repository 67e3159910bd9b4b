using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.Json;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;
using Spectre.Console;

namespace NetCoreServer.Performance.Suite;

/// <summary>
/// The benchmark suite, the main demo: for every protocol, the echo benchmark and the multicast benchmark with 1 and
/// with 100 clients against our servers, the raw .NET Socket echo server, the C epoll references (performance/peers),
/// Kestrel (http, https, and h2c, h2 under h2load) and the npm ws package's server (ws, wss), each server a
/// separate process on a free loopback port (udp multicast in a private network namespace), with a live progress
/// display. Prints one table and writes suite.json, suite.md and suite.png (artifacts/suite by default).
/// Exit codes: 0 when every run was measured (or skipped for a missing tool), 1 when a run failed, 2 for a bad command line.
/// </summary>
internal static class Program
{
    private static async Task<int> Main(string[] args)
    {
        if (!OptionsParser.TryParse<SuiteOptions>(args, out var options, out var exitCode))
            return exitCode;
        Layout layout;
        try
        {
            layout = Layout.Find();
        }
        catch (DirectoryNotFoundException exception)
        {
            Console.Error.WriteLine($"error: {exception.Message}");
            return ExitCodes.Failure;
        }

        if (options.InsideNamespace)
            return await RunInsideNamespaceAsync(options, layout);

        var output = layout.Output(options.Out);
        var peers = options.NoBaselines && !options.CLoad
            ? CPeers.None("not asked for")
            : await CPeers.BuildAsync(layout.Peers(options.Peers), output);
        var nodeAsked = !options.NoBaselines && options.ChosenProtocols.Any(name => ProtocolTable.Find(name)!.Has(ProtocolTraits.NodeWsServer));
        var node = nodeAsked ? await NodeWs.PrepareAsync(output) : NodeWs.None("not asked for");
        var plan = ScenarioPlanner.Plan(options, peers, node);
        if (peers.Missing is { } missing && !options.NoBaselines)
            AnsiConsole.MarkupLine($"[yellow]C peers: {Markup.Escape(missing)}; their rows are left out[/]");
        if (nodeAsked && node.Missing is { } noNode)
            AnsiConsole.MarkupLine($"[yellow]node ws peer: {Markup.Escape(noNode)}; its rows are left out[/]");
        else if (nodeAsked)
            AnsiConsole.MarkupLine($"[dim]node ws peer: ws {Markup.Escape(node.Version ?? "?")} in {Markup.Escape(node.Modules!)}[/]");

        var rows = await RunAllAsync(plan, layout, peers, node, options.Seconds);
        Baselines.Apply(rows);
        var report = new SuiteReport { Date = DateTime.UtcNow, Machine = SuiteReport.DescribeMachine(), Seconds = options.Seconds, Rows = rows };
        var chart = Path.Combine(output, "suite.png");
        var drawn = ChartWriter.Write(rows, chart, $"NetCoreServer suite, {report.Date:yyyy-MM-dd}, {options.Seconds} s per run, {ScenarioRunner.Size}-byte messages");
        report.Write(output, drawn ? chart : null);

        ConsoleReport.Print(report);
        AnsiConsole.WriteLine($"Written: {Path.Combine(output, "suite.json")}, suite.md{(drawn ? ", suite.png" : "")}");
        var failed = rows.Count(row => !row.Measured && !row.Failure!.StartsWith("skipped", StringComparison.Ordinal));
        return failed == 0 ? ExitCodes.Success : ExitCodes.Failure;
    }

    private static async Task<List<SuiteRow>> RunAllAsync(List<Scenario> plan, Layout layout, CPeers peers, NodeWs node, int seconds)
    {
        var runner = new ScenarioRunner(layout, peers, node, seconds);
        var namespaced = new NamespaceRunner(layout, seconds);
        var rows = new List<SuiteRow>();
        Task<SuiteRow> Run(Scenario scenario, Action<double> progress)
            => InNamespace(scenario) ? namespaced.RunAsync(scenario, progress) : runner.RunAsync(scenario, progress);

        // Redirected to a file or a pipe, a live display would print a line per refresh: one line per run instead.
        if (!AnsiConsole.Profile.Capabilities.Interactive)
        {
            Console.WriteLine($"suite: {plan.Count} runs of {seconds} s");
            foreach (var scenario in plan)
            {
                var row = await Run(scenario, _ => { });
                Console.WriteLine($"  {scenario}: {(row.Measured ? $"{Format.Rate(row.MessagesPerSecond)} msg/s" : row.Failure)}");
                rows.Add(row);
            }
            return rows;
        }

        await AnsiConsole.Progress()
            .AutoClear(false)
            .Columns(new TaskDescriptionColumn { Alignment = Justify.Left }, new ProgressBarColumn(), new PercentageColumn(), new ElapsedTimeColumn(), new SpinnerColumn())
            .StartAsync(async context =>
            {
                var overall = context.AddTask($"[bold]suite: {plan.Count} runs of {seconds} s[/]", maxValue: plan.Count);
                foreach (var scenario in plan)
                {
                    var task = context.AddTask(Markup.Escape(scenario.ToString()), maxValue: 1.0);
                    var row = await Run(scenario, fraction => task.Value = fraction);
                    task.Value = 1.0;
                    task.Description = Markup.Escape(scenario.ToString()) + (row.Measured ? $" [green]{Format.Rate(row.MessagesPerSecond)} msg/s[/]" : " [red]failed[/]");
                    task.StopTask();
                    overall.Increment(1);
                    rows.Add(row);
                }
            });
        return rows;
    }

    // The inner suite of NamespaceRunner: runs its scenarios here and prints each row as a JSON line.
    private static async Task<int> RunInsideNamespaceAsync(SuiteOptions options, Layout layout)
    {
        var runner = new ScenarioRunner(layout, CPeers.None("inside the namespace"), NodeWs.None("inside the namespace"), options.Seconds);
        var failed = 0;
        foreach (var scenario in ScenarioPlanner.Plan(options, CPeers.None("inside the namespace"), NodeWs.None("inside the namespace")))
        {
            var row = await runner.RunAsync(scenario, _ => { });
            failed += row.Measured ? 0 : 1;
            Console.WriteLine(NamespaceRunner.RowPrefix + JsonSerializer.Serialize(row));
        }
        return failed == 0 ? ExitCodes.Success : ExitCodes.Failure;
    }

    private static bool InNamespace(Scenario scenario)
        => scenario.Benchmark == Benchmark.Multicast && scenario.Protocol.Has(ProtocolTraits.MulticastNeedsNamespace);
}
