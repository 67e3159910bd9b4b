using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.Suite;

/// <summary>
/// The neutral C peers (echo_epoll, mcast_epoll, echo_load, mcast_load), compiled at run time with <c>cc</c> from
/// their sources (by default ../shared/peers) into the output folder; their sources are not part of this repository.
/// </summary>
internal sealed class CPeers
{
    public const string EchoServer = "echo_epoll";
    public const string MulticastServer = "mcast_epoll";
    public const string EchoLoad = "echo_load";
    public const string MulticastLoad = "mcast_load";

    private static readonly TimeSpan s_compileTimeout = TimeSpan.FromSeconds(60);

    private readonly Dictionary<string, string> _built;

    private CPeers(Dictionary<string, string> built, string? missing)
    {
        _built = built;
        Missing = missing;
    }

    /// <summary>Why some peer is not available (no cc, no sources, a failed compile), or null when all are.</summary>
    public string? Missing { get; }

    /// <summary>None: the suite runs without C peers.</summary>
    public static CPeers None(string why) => new([], why);

    /// <summary>The executable of <paramref name="name"/>, or null when it could not be built.</summary>
    public string? this[string name] => _built.GetValueOrDefault(name);

    /// <summary>Compiles every peer whose source is in <paramref name="sources"/> into <paramref name="output"/>/peers, unless an up-to-date build is there.</summary>
    public static async Task<CPeers> BuildAsync(string sources, string output)
    {
        var cc = Executables.Find("cc");
        if (cc is null)
            return None("cc is not installed");
        if (!Directory.Exists(sources))
            return None($"no C peers at {sources}");

        var folder = Path.Combine(output, "peers");
        Directory.CreateDirectory(folder);
        var built = new Dictionary<string, string>();
        var problems = new List<string>();
        foreach (var name in new[] { EchoServer, MulticastServer, EchoLoad, MulticastLoad })
        {
            var source = Path.Combine(sources, name + ".c");
            var binary = Path.Combine(folder, name);
            if (!File.Exists(source))
            {
                problems.Add($"{source} is missing");
                continue;
            }
            if (File.Exists(binary) && File.GetLastWriteTimeUtc(binary) >= File.GetLastWriteTimeUtc(source))
            {
                built[name] = binary;
                continue;
            }
            using var compiler = ChildProcess.Start(cc, "-O2", "-pthread", "-o", binary, source);
            if (!await compiler.WaitForExitAsync(s_compileTimeout) || compiler.ExitCode != ExitCodes.Success)
                problems.Add($"cc {name}.c failed: {compiler.Output}");
            else
                built[name] = binary;
        }
        return new CPeers(built, problems.Count == 0 ? null : string.Join("; ", problems));
    }
}
