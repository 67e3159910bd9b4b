using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Package.Tests;

/// <summary>
/// Runs the dotnet CLI for the package tests with bounded time, in an environment of its own: nothing inherited from
/// the dotnet test run that started us (MSBuild's variables), and no build servers or node reuse, whose long-lived
/// processes would keep our output pipes open and outlive the test.
/// </summary>
internal static class Dotnet
{
    /// <summary>The dotnet host: the SDK's that runs the tests, else the one on PATH.</summary>
    public static string Host => SourceTree.DotnetHost() ?? throw new InvalidOperationException("dotnet is not on PATH");

    /// <summary>A start description for <paramref name="arguments"/> in <paramref name="directory"/>, output redirected.</summary>
    public static ProcessStartInfo StartInfo(string directory, IEnumerable<string> arguments, IReadOnlyDictionary<string, string>? environment = null)
    {
        var info = new ProcessStartInfo(Host)
        {
            WorkingDirectory = directory,
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in arguments)
            info.ArgumentList.Add(argument);
        foreach (var name in info.Environment.Keys.ToList())
        {
            if (name.StartsWith("MSBUILD", StringComparison.OrdinalIgnoreCase) || name.StartsWith("VSTEST", StringComparison.OrdinalIgnoreCase))
                info.Environment.Remove(name);
        }
        info.Environment["DOTNET_NOLOGO"] = "1";
        info.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        info.Environment["DOTNET_SKIP_FIRST_TIME_EXPERIENCE"] = "1";
        info.Environment["DOTNET_CLI_USE_MSBUILD_SERVER"] = "0";
        info.Environment["MSBUILDDISABLENODEREUSE"] = "1";
        info.Environment["UseSharedCompilation"] = "false";
        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
            info.Environment[name] = value;
        return info;
    }

    /// <summary>
    /// Runs dotnet to the end and returns its output; fails the test with that output when it exits non-zero, and
    /// kills it past <paramref name="timeout"/>.
    /// </summary>
    public static async Task<string> Run(string directory, IEnumerable<string> arguments, TimeSpan timeout,
        IReadOnlyDictionary<string, string>? environment = null)
    {
        var info = StartInfo(directory, arguments, environment);
        var command = "dotnet " + string.Join(' ', info.ArgumentList);
        var watch = Stopwatch.StartNew();
        using var process = Process.Start(info) ?? throw new InvalidOperationException($"{command} did not start");
        process.StandardInput.Close();
        var output = process.StandardOutput.ReadToEndAsync();
        var errors = process.StandardError.ReadToEndAsync();
        try
        {
            await process.WaitForExitAsync().WaitAsync(timeout);
        }
        catch (TimeoutException)
        {
            process.Kill(entireProcessTree: true);
            Assert.Fail($"{command} did not finish in {timeout.TotalSeconds} s");
        }
        var text = new StringBuilder().Append(await output).Append(await errors).ToString();
        TestContext.Progress.WriteLine($"{command}: exit {process.ExitCode} in {watch.Elapsed.TotalSeconds:0.0} s");
        if (process.ExitCode != 0)
            Assert.Fail($"{command} exited with {process.ExitCode} in {directory}:\n{text}");
        return text;
    }

    /// <summary>A new empty folder under the system's temp folder, outside the repository and its Directory.Build.props.</summary>
    public static string NewTempFolder(string name)
    {
        var path = Path.Combine(Path.GetTempPath(), $"css-{name}-{Guid.NewGuid():N}");
        Directory.CreateDirectory(path);
        return path;
    }
}
