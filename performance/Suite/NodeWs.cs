using System;
using System.IO;
using System.Text.Json;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.Suite;

/// <summary>
/// The ws and wss rows' peer: performance/ws-peer.js, the npm ws package on Node.js. The package is installed with
/// <c>npm install ws@8</c> into the output folder's node/ on first use, never into the repository.
/// </summary>
internal sealed class NodeWs
{
    /// <summary>The major version installed: the one ws-peer.js is written against.</summary>
    public const string Package = "ws@8";

    private static readonly TimeSpan s_installTimeout = TimeSpan.FromSeconds(180);

    private NodeWs(string? node, string? modules, string? version, string? missing)
    {
        Node = node;
        Modules = modules;
        Version = version;
        Missing = missing;
    }

    /// <summary>The node executable, when the peer can run.</summary>
    public string? Node { get; }

    /// <summary>The folder whose node_modules holds ws.</summary>
    public string? Modules { get; }

    /// <summary>The installed ws version, for the console.</summary>
    public string? Version { get; }

    /// <summary>Why the peer cannot run here, or null when it can.</summary>
    public string? Missing { get; }

    /// <summary>None: the suite runs without it.</summary>
    public static NodeWs None(string why) => new(null, null, null, why);

    /// <summary>Finds node, and installs ws with npm into <paramref name="output"/>/node unless it is there.</summary>
    public static async Task<NodeWs> PrepareAsync(string output)
    {
        var node = Executables.Find("node") ?? Executables.Find("nodejs");
        if (node is null)
            return None("node is not installed (apt-get install nodejs npm)");
        var folder = Path.Combine(output, "node");
        var manifest = Path.Combine(folder, "node_modules", "ws", "package.json");
        if (!File.Exists(manifest))
        {
            var npm = Executables.Find("npm");
            if (npm is null)
                return None("npm is not installed (apt-get install npm)");
            Directory.CreateDirectory(folder);
            using var install = ChildProcess.Start(npm, "install", "--prefix", folder, "--no-audit", "--no-fund", "--loglevel=error", Package);
            if (!await install.WaitForExitAsync(s_installTimeout) || install.ExitCode != ExitCodes.Success || !File.Exists(manifest))
                return None($"npm install {Package} failed: {string.Join(" | ", install.Lines[^Math.Min(3, install.Lines.Length)..])}");
        }
        using var document = JsonDocument.Parse(File.ReadAllText(manifest));
        var version = document.RootElement.TryGetProperty("version", out var value) ? value.GetString() : null;
        return new NodeWs(node, folder, version, null);
    }
}
