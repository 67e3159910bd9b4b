using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Security.Cryptography;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.Suite;

/// <summary>
/// The C reference peers (echo_epoll, mcast_epoll, echo_load, mcast_load), compiled at run time with <c>cc</c> from
/// their sources (by default the repository's performance/peers, or the folder of <c>--peers</c>) into the output folder.
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

    /// <summary>Compiles every peer whose source is in <paramref name="sources"/> into <paramref name="output"/>/peers/TAG (TAG names the source folder), unless an up-to-date build is there.</summary>
    public static async Task<CPeers> BuildAsync(string sources, string output)
    {
        var cc = Executables.Find("cc");
        if (cc is null)
            return None("cc is not installed (apt-get install gcc)");
        if (!Directory.Exists(sources))
            return None($"no C peers at {sources}");

        // One folder per source folder, so that switching --peers never runs binaries built from the other sources.
        var tag = Convert.ToHexString(SHA256.HashData(Encoding.UTF8.GetBytes(sources)))[..8].ToLowerInvariant();
        var folder = Path.Combine(output, "peers", tag);
        Directory.CreateDirectory(folder);
        // A source may include a header of the folder (performance/peers' peer.h): a newer one rebuilds them all.
        var headers = Directory.GetFiles(sources, "*.h").Select(File.GetLastWriteTimeUtc).DefaultIfEmpty(DateTime.MinValue).Max();
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
            var sourceTime = File.GetLastWriteTimeUtc(source);
            if (File.Exists(binary) && File.GetLastWriteTimeUtc(binary) >= (sourceTime > headers ? sourceTime : headers))
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
