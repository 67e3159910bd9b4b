using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text.Json;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Interop;

/// <summary>
/// The WebSocket peers nobody here wrote, run by Node.js from tests/interop (whose scripts are ours, the packages
/// not): the npm <c>ws</c> package's echo server and client, and Debian's chromium driven by playwright-core.
/// build/test.sh installs node, npm and chromium, and runs <c>npm ci</c> there; a test is ignored only when one of
/// them is missing, with a message saying which.
/// </summary>
internal static class NodePeers
{
    /// <summary>How long a script that runs to its end may take.</summary>
    public static readonly TimeSpan ScriptTimeout = TimeSpan.FromSeconds(60);

    // A safety net: a server script stops by itself even if this test process dies before killing it.
    private const int LifetimeSeconds = 120;

    /// <summary>tests/interop with its npm packages installed; ignores the test when node or a package is missing.</summary>
    public static (string Node, string Directory) Require(params string[] packages)
    {
        var node = ExternalTool.Require("node");
        var directory = Path.Combine(RepositoryBuild.RequireRoot("the scripts of tests/interop cannot be found"), "tests", "interop");
        foreach (var package in packages)
        {
            if (!File.Exists(Path.Combine(directory, "node_modules", package, "package.json")))
                Assert.Ignore($"the npm package {package} is not installed in {directory} (build/test.sh runs npm ci there)");
        }
        return (node, directory);
    }

    /// <summary>The browser chat-browser.js drives; ignores the test when it is not installed.</summary>
    public static string RequireChromium()
    {
        var chromium = Environment.GetEnvironmentVariable("CHROMIUM") ?? "/usr/bin/chromium";
        if (!File.Exists(chromium))
            Assert.Ignore($"no browser at {chromium} (build/test.sh installs Debian's chromium)");
        return chromium;
    }

    /// <summary>
    /// Starts ws-echo-server.js on a free loopback port, with permessage-deflate when <paramref name="deflate"/>, over
    /// TLS with <paramref name="pem"/>'s "server" certificate when given; returns it with its port once it listens.
    /// </summary>
    public static async Task<(ChildProcess Server, int Port)> StartEchoServer(bool deflate, PemFiles? pem = null)
    {
        var (node, directory) = Require("ws");
        List<string> arguments = [Path.Combine(directory, "ws-echo-server.js"), "--port", "0", "--lifetime", LifetimeSeconds.ToString(CultureInfo.InvariantCulture)];
        if (deflate)
            arguments.Add("--deflate");
        if (pem is not null)
            arguments.AddRange(["--tls", Path.Combine(pem.Directory, "server.crt"), pem.Key("server")]);
        var server = ChildProcess.Start(node, arguments, "the ws echo server");
        try
        {
            var listening = await server.WaitForLine(@"^ws echo server listening on .*:(\d+)$", "its 'listening on' line");
            return (server, int.Parse(listening.Groups[1].Value, CultureInfo.InvariantCulture));
        }
        catch
        {
            server.Dispose();
            throw;
        }
    }

    /// <summary>
    /// Runs ws-client-check.js against <paramref name="url"/> to its end and returns its JSON report; fails the test
    /// when it did not complete the exchange.
    /// </summary>
    public static async Task<JsonElement> RunClientCheck(string url, bool deflate, string? authority = null)
    {
        var (node, directory) = Require("ws");
        List<string> arguments = [Path.Combine(directory, "ws-client-check.js"), url];
        if (deflate)
            arguments.Add("--deflate");
        if (authority is not null)
            arguments.AddRange(["--ca", authority]);
        var result = await ExternalTool.Run(node, arguments, ScriptTimeout);
        var line = result.Output.Split('\n').LastOrDefault(text => text.StartsWith('{'));
        Assert.That(line, Is.Not.Null, $"ws-client-check.js printed its report: {result}");
        var report = JsonDocument.Parse(line!).RootElement.Clone();
        Assert.That(result.ExitCode, Is.EqualTo(0), $"the ws client completed the exchange: {result}");
        return report;
    }
}
