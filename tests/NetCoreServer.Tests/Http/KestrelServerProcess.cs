using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// performance/KestrelServer, ASP.NET Core's Kestrel serving <c>GET /fixed</c> and a TRACE echo, as a child process:
/// built with a bounded <c>dotnet build</c>, started on a loopback port it picks itself (port 0, read back from its
/// "listening on" line), killed when stopped or disposed. Every wait is bounded.
/// </summary>
internal sealed partial class KestrelServerProcess : IDisposable
{
    /// <summary>An up-to-date build takes seconds; a first one on a loaded shared machine can take a minute.</summary>
    private static readonly TimeSpan s_buildTimeout = TimeSpan.FromSeconds(90);

    private static readonly TimeSpan s_startTimeout = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan s_stopTimeout = TimeSpan.FromSeconds(10);

    // A safety net: the server stops by itself even if this test process dies before killing it.
    private const int LifetimeSeconds = 120;

    private readonly Process _process;
    private readonly ConcurrentQueue<string> _output;

    private KestrelServerProcess(Process process, ConcurrentQueue<string> output)
    {
        _process = process;
        _output = output;
    }

    /// <summary>The loopback port the server listens on.</summary>
    public int Port { get; private set; }

    /// <summary>What the server printed so far, for failure messages.</summary>
    public string Output => string.Join(Environment.NewLine, _output);

    /// <summary>
    /// Builds performance/KestrelServer in Release and returns its assembly. The test is ignored only when the build is
    /// impossible here (no repository above the tests, no dotnet, no ASP.NET Core in the SDK); a build that fails
    /// otherwise, or takes too long, fails the test.
    /// </summary>
    public static async Task<string> Build()
    {
        var root = SourceTree.Root();
        if (root is null)
            Assert.Ignore($"no NetCoreServer.sln above {AppContext.BaseDirectory}, so performance/KestrelServer cannot be built");
        var dotnet = SourceTree.DotnetHost();
        if (dotnet is null)
            Assert.Ignore("no dotnet host to build performance/KestrelServer with");

        var project = Path.Combine(root!, "performance", "KestrelServer", "NetCoreServer.Performance.KestrelServer.csproj");
        // No build servers: a node or compiler server left running would hold our output pipes open (and outlive the test).
        var (exitCode, output) = await Run(dotnet!, new[] { "build", project, "-c", "Release", "-nologo", "-v", "quiet", "--disable-build-servers" }, s_buildTimeout);
        if (exitCode != 0)
        {
            // MSB4236: the Web SDK is missing; NETSDK1073: the ASP.NET Core framework reference is unknown.
            if (output.Contains("MSB4236", StringComparison.Ordinal) || output.Contains("NETSDK1073", StringComparison.Ordinal))
                Assert.Ignore($"this SDK cannot build an ASP.NET Core app: {FirstError(output)}");
            Assert.Fail($"building performance/KestrelServer failed (exit code {exitCode}):{Environment.NewLine}{output}");
        }

        var assembly = Path.Combine(root!, "performance", "KestrelServer", "bin", "Release", "net10.0", "NetCoreServer.Performance.KestrelServer.dll");
        Assert.That(File.Exists(assembly), Is.True, $"the build wrote {assembly}");
        return assembly;
    }

    /// <summary>Starts the server over plain HTTP and waits (bounded) until it says it accepts connections.</summary>
    public static async Task<KestrelServerProcess> Start(string assembly)
    {
        var info = StartInfo(SourceTree.DotnetHost()!, new[] { assembly, "0", "http", "--address", "127.0.0.1", "--lifetime", LifetimeSeconds.ToString(CultureInfo.InvariantCulture) });
        var output = new ConcurrentQueue<string>();
        var listening = new TaskCompletionSource<int>(TaskCreationOptions.RunContinuationsAsynchronously);
        var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        process.OutputDataReceived += (_, line) =>
        {
            if (line.Data is null)
                return;
            output.Enqueue(line.Data);
            var port = ListeningPort().Match(line.Data);
            if (port.Success)
                listening.TrySetResult(int.Parse(port.Groups[1].Value, CultureInfo.InvariantCulture));
        };
        process.ErrorDataReceived += (_, line) =>
        {
            if (line.Data is not null)
                output.Enqueue(line.Data);
        };
        process.Exited += (_, _) => listening.TrySetException(new InvalidOperationException("the Kestrel server exited before it was listening"));
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        var server = new KestrelServerProcess(process, output);
        try
        {
            server.Port = await Wait.For(listening.Task, "the Kestrel server's 'listening on' line", s_startTimeout);
            return server;
        }
        catch (Exception exception)
        {
            server.Dispose();
            throw new InvalidOperationException($"{exception.Message}; it printed:{Environment.NewLine}{server.Output}", exception);
        }
    }

    /// <summary>Kills the server (its connections close with it) and waits, bounded, until it is gone.</summary>
    public async Task Stop()
    {
        if (!_process.HasExited)
            _process.Kill(entireProcessTree: true);
        await Wait.For(_process.WaitForExitAsync(), "the killed Kestrel server to exit", s_stopTimeout);
    }

    public void Dispose()
    {
        try
        {
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
                _process.WaitForExit(s_stopTimeout);
            }
        }
        catch (InvalidOperationException)
        {
            // Never started, or already reaped.
        }
        _process.Dispose();
    }

    [GeneratedRegex(@"listening on .*:(\d+)$")]
    private static partial Regex ListeningPort();

    private static ProcessStartInfo StartInfo(string program, IEnumerable<string> arguments)
    {
        var info = new ProcessStartInfo(program)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in arguments)
            info.ArgumentList.Add(argument);
        // The test host runs under `dotnet test`, whose MSBuild settings must not leak into a build of another project.
        foreach (var name in info.Environment.Keys.Where(key => key.StartsWith("MSBUILD", StringComparison.OrdinalIgnoreCase)).ToList())
            info.Environment.Remove(name);
        info.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        info.Environment["DOTNET_NOLOGO"] = "1";
        return info;
    }

    private static async Task<(int ExitCode, string Output)> Run(string program, IEnumerable<string> arguments, TimeSpan timeout)
    {
        using var process = Process.Start(StartInfo(program, arguments)) ?? throw new InvalidOperationException($"{program} did not start");
        process.StandardInput.Close();
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        if (!await Wait.Within(process.WaitForExitAsync(), timeout))
        {
            process.Kill(entireProcessTree: true);
            Assert.Fail($"{program} {string.Join(' ', arguments)} did not finish within {timeout.TotalSeconds:0} s");
        }
        // Bounded too: only a process left behind holding the pipes could keep them open.
        var both = Task.WhenAll(output, errors);
        if (!await Wait.Within(both, s_stopTimeout))
            Assert.Fail($"{program} {string.Join(' ', arguments)} exited but left its output open (a build server still running?)");
        return (process.ExitCode, await output + await errors);
    }

    private static string FirstError(string output)
        => output.Split('\n').FirstOrDefault(line => line.Contains("error", StringComparison.OrdinalIgnoreCase))?.Trim() ?? output.Trim();
}
