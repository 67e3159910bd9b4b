using System;
using System.Globalization;
using System.Linq;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// performance/KestrelServer, ASP.NET Core's Kestrel serving <c>GET /fixed</c> and a TRACE echo (or a WebSocket echo), as a child process:
/// built with a bounded <c>dotnet build</c> (<see cref="RepositoryBuild"/>), started on a loopback port it picks itself
/// (port 0, read back from its "listening on" line), killed when stopped or disposed. Every wait is bounded.
/// </summary>
internal sealed class KestrelServerProcess : IDisposable
{
    private static readonly TimeSpan s_startTimeout = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan s_stopTimeout = TimeSpan.FromSeconds(10);

    // A safety net: the server stops by itself even if this test process dies before killing it.
    private const int LifetimeSeconds = 120;

    private readonly ChildProcess _process;

    private KestrelServerProcess(ChildProcess process, int port)
    {
        _process = process;
        Port = port;
    }

    /// <summary>The loopback port the server listens on.</summary>
    public int Port { get; }

    /// <summary>What the server printed so far, for failure messages.</summary>
    public string Output => _process.Output;

    /// <summary>
    /// Builds performance/KestrelServer in Release and returns its assembly. The test is ignored only when the build is
    /// impossible here (no repository above the tests, no dotnet, no ASP.NET Core in the SDK); a build that fails
    /// otherwise, or takes too long, fails the test.
    /// </summary>
    public static Task<string> Build() => RepositoryBuild.Build(
        "performance/KestrelServer/NetCoreServer.Performance.KestrelServer.csproj",
        "bin/Release/net10.0/NetCoreServer.Performance.KestrelServer.dll",
        // MSB4236: the Web SDK is missing; NETSDK1073: the ASP.NET Core framework reference is unknown.
        output => output.Contains("MSB4236", StringComparison.Ordinal) || output.Contains("NETSDK1073", StringComparison.Ordinal)
            ? $"this SDK cannot build an ASP.NET Core app: {FirstError(output)}"
            : null);

    /// <summary>
    /// Starts the server over plain HTTP (<paramref name="protocol"/> http) or as a WebSocket echo (ws) and waits
    /// (bounded) until it says it accepts connections.
    /// </summary>
    public static async Task<KestrelServerProcess> Start(string assembly, string protocol = "http")
    {
        var process = ChildProcess.Start(RepositoryBuild.StartInfo(
            [assembly, "0", protocol, "--address", "127.0.0.1", "--lifetime", LifetimeSeconds.ToString(CultureInfo.InvariantCulture)]),
            "the Kestrel server");
        try
        {
            var listening = await process.WaitForLine(@"listening on .*:(\d+)$", "its 'listening on' line", s_startTimeout);
            return new KestrelServerProcess(process, int.Parse(listening.Groups[1].Value, CultureInfo.InvariantCulture));
        }
        catch
        {
            process.Dispose();
            throw;
        }
    }

    /// <summary>Kills the server (its connections close with it) and waits, bounded, until it is gone.</summary>
    public async Task Stop()
    {
        _process.Kill();
        await _process.WaitForExit("killed", s_stopTimeout);
    }

    public void Dispose() => _process.Dispose();

    private static string FirstError(string output)
        => output.Split('\n').FirstOrDefault(line => line.Contains("error", StringComparison.OrdinalIgnoreCase))?.Trim() ?? output.Trim();
}
