using System;
using System.Collections.Generic;
using System.IO;

namespace NetCoreServer.Performance.Common;

/// <summary>
/// The protocols a benchmark may be asked for, their usual ports (the ones NetCoreServer's examples use) and, for uds,
/// the usual socket files.
/// </summary>
public static class Protocols
{
    private static readonly Dictionary<string, int> s_defaultPorts = new(StringComparer.OrdinalIgnoreCase)
    {
        ["tcp"] = 1111,
        ["ssl"] = 2222,
        ["udp"] = 3333,
        // A Unix socket has a path, not a port.
        ["uds"] = 0,
        ["http"] = 8080,
        ["https"] = 8443,
        ["ws"] = 8080,
        ["wss"] = 8443,
    };

    /// <summary>Every protocol name a benchmark may eventually implement, in the order they are listed to the user.</summary>
    public static IReadOnlyList<string> Known { get; } = ["tcp", "ssl", "uds", "udp", "ws", "wss", "http", "https"];

    /// <summary>True when <paramref name="protocol"/> is one of <see cref="Known"/> (case-insensitive).</summary>
    public static bool IsKnown(string protocol) => s_defaultPorts.ContainsKey(protocol);

    /// <summary>The usual port of <paramref name="protocol"/>; 1111 (tcp's) for a name that is not known.</summary>
    public static int DefaultPort(string protocol) => s_defaultPorts.TryGetValue(protocol, out var port) ? port : 1111;

    /// <summary>True when <paramref name="protocol"/> reaches its server through a socket file (uds), not an address and a port.</summary>
    public static bool UsesSocketFile(string protocol) => protocol.Equals("uds", StringComparison.OrdinalIgnoreCase);

    /// <summary>
    /// The usual socket file of a benchmark's uds server: <c>netcoreserver-<paramref name="benchmark"/>.sock</c> in the
    /// temp folder, e.g. <c>/tmp/netcoreserver-echo.sock</c>. One per benchmark, so that an echo and a multicast server
    /// can run side by side.
    /// </summary>
    public static string DefaultSocketPath(string benchmark) => Path.Combine(Path.GetTempPath(), $"netcoreserver-{benchmark}.sock");
}
