using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.Support;

/// <summary>
/// Programs of this repository that tests run as processes (performance/KestrelServer, the chat examples): found from
/// the test's own folder, built with a bounded <c>dotnet build</c> in Release, started through the same dotnet host.
/// </summary>
internal static class RepositoryBuild
{
    /// <summary>An up-to-date build takes seconds; a first one on a loaded shared machine can take a minute. Below the
    /// suite's 120 s per test, so a slow build fails with this message rather than the runner's.</summary>
    private static readonly TimeSpan s_buildTimeout = TimeSpan.FromSeconds(90);

    private static readonly TimeSpan s_outputTimeout = TimeSpan.FromSeconds(10);

    // Fixtures run in parallel, and two builds at once would write the projects they share (the library) together.
    private static readonly SemaphoreSlim s_oneBuildAtATime = new(1, 1);

    /// <summary>The folder holding NetCoreServer.sln above the running tests, or null.</summary>
    public static string? Root() => SourceTree.Root();

    /// <summary>The root; the test is ignored when the tests do not run from inside the repository.</summary>
    public static string RequireRoot(string why)
    {
        var root = Root();
        if (root is null)
            Assert.Ignore($"no NetCoreServer.sln above {AppContext.BaseDirectory}, so {why}");
        return root!;
    }

    /// <summary>The dotnet host running these tests (or the one on PATH), or null.</summary>
    public static string? DotnetHost() => SourceTree.DotnetHost();

    /// <summary>
    /// Builds <paramref name="project"/> (relative to the root) in Release and returns <paramref name="assembly"/>
    /// (relative to the project's folder). The test is ignored only when the build is impossible here (no repository,
    /// no dotnet, or <paramref name="impossible"/> says so of the output); a build that fails otherwise, or takes too
    /// long, fails the test.
    /// </summary>
    public static async Task<string> Build(string project, string assembly, Func<string, string?>? impossible = null)
    {
        var root = RequireRoot($"{project} cannot be built");
        var dotnet = DotnetHost();
        if (dotnet is null)
            Assert.Ignore($"no dotnet host to build {project} with");

        var path = Path.Combine(root, project);
        var built = Path.Combine(Path.GetDirectoryName(path)!, assembly);
        // build/test.sh builds the whole solution before any test and says so: nothing is built twice.
        if (Environment.GetEnvironmentVariable("NETCORESERVER_SOLUTION_BUILT") == "1")
        {
            Assert.That(File.Exists(built), Is.True, $"the solution build (build/test.sh) made {built}");
            return built;
        }
        int exitCode;
        string output;
        // Bounded: a build waiting its turn waits at most as long as one build may take.
        if (!await s_oneBuildAtATime.WaitAsync(s_buildTimeout))
            Assert.Fail($"another test's build was still running after {s_buildTimeout.TotalSeconds:0} s, so {project} was not built");
        try
        {
            // No build servers: a node or compiler server left running would hold our output pipes open (and outlive the test).
            (exitCode, output) = await Run(dotnet!, ["build", path, "-c", "Release", "-nologo", "-v", "quiet", "--disable-build-servers"], s_buildTimeout);
        }
        finally
        {
            s_oneBuildAtATime.Release();
        }
        if (exitCode != 0)
        {
            if (impossible?.Invoke(output) is { } reason)
                Assert.Ignore(reason);
            Assert.Fail($"building {project} failed (exit code {exitCode}):{Environment.NewLine}{output}");
        }

        Assert.That(File.Exists(built), Is.True, $"the build wrote {built}");
        return built;
    }

    /// <summary>How to run a built assembly with the dotnet host, with the test host's MSBuild settings left out.</summary>
    public static ProcessStartInfo StartInfo(IEnumerable<string> arguments, string? workingDirectory = null)
    {
        var info = new ProcessStartInfo(DotnetHost() ?? "dotnet");
        foreach (var argument in arguments)
            info.ArgumentList.Add(argument);
        // The test host runs under `dotnet test`, whose MSBuild settings must not leak into a build of another project.
        foreach (var name in info.Environment.Keys.Where(key => key.StartsWith("MSBUILD", StringComparison.OrdinalIgnoreCase)).ToList())
            info.Environment.Remove(name);
        info.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";
        info.Environment["DOTNET_NOLOGO"] = "1";
        if (workingDirectory is not null)
            info.WorkingDirectory = workingDirectory;
        return info;
    }

    private static async Task<(int ExitCode, string Output)> Run(string program, IEnumerable<string> arguments, TimeSpan timeout)
    {
        var info = StartInfo(arguments);
        info.FileName = program;
        info.RedirectStandardInput = true;
        info.RedirectStandardOutput = true;
        info.RedirectStandardError = true;
        info.UseShellExecute = false;
        using var process = Process.Start(info) ?? throw new InvalidOperationException($"{program} did not start");
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
        if (!await Wait.Within(both, s_outputTimeout))
            Assert.Fail($"{program} {string.Join(' ', arguments)} exited but left its output open (a build server still running?)");
        return (process.ExitCode, await output + await errors);
    }
}
