using System;
using System.Collections.Generic;
using System.Diagnostics.CodeAnalysis;
using System.Globalization;
using System.IO;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Examples;

/// <summary>
/// The positional arguments of the chat and HTTP examples: <c>[port] [address]</c> for servers, <c>[address] [port]</c> for
/// clients, <c>[path]</c> for both over Unix sockets. The HTTP and WebSocket examples also take a socket file's path in
/// place of their usual arguments (see <see cref="NamesSocketFile"/>).
/// </summary>
public static class ChatArguments
{
    /// <summary>The address servers listen on and clients connect to unless told otherwise: loopback only.</summary>
    public const string DefaultAddress = "127.0.0.1";

    /// <summary>Parses a server's <c>[port] [address]</c>; port 0 asks for a free port.</summary>
    /// <param name="args">The arguments.</param>
    /// <param name="defaultPort">The port when none is given.</param>
    /// <param name="address">The IP address to listen on.</param>
    /// <param name="port">The port to listen on.</param>
    /// <returns>False when there are too many arguments or one does not parse.</returns>
    public static bool TryParseServer(IReadOnlyList<string> args, int defaultPort, out IPAddress address, out int port)
    {
        address = IPAddress.Parse(DefaultAddress);
        port = defaultPort;
        if (args.Count > 2)
            return false;
        if (args.Count >= 1 && !TryParsePort(args[0], allowZero: true, out port))
            return false;
        if (args.Count == 2)
        {
            if (!IPAddress.TryParse(args[1], out var parsed))
                return false;
            address = parsed;
        }
        return true;
    }

    /// <summary>Parses a client's <c>[address] [port]</c>; the address may be a host name.</summary>
    /// <param name="args">The arguments.</param>
    /// <param name="defaultPort">The port when none is given.</param>
    /// <param name="address">The address or host name to connect to.</param>
    /// <param name="port">The port to connect to.</param>
    /// <returns>False when there are too many arguments or the port does not parse.</returns>
    public static bool TryParseClient(IReadOnlyList<string> args, int defaultPort, out string address, out int port)
    {
        address = DefaultAddress;
        port = defaultPort;
        if (args.Count > 2)
            return false;
        if (args.Count >= 1)
            address = args[0];
        return args.Count < 2 || TryParsePort(args[1], allowZero: false, out port);
    }

    /// <summary>
    /// The socket file the Unix socket chat uses unless told otherwise: <c>netcoreserver-chat.sock</c> in the temp
    /// folder, which is <c>/tmp/netcoreserver-chat.sock</c> on Linux unless TMPDIR names another.
    /// </summary>
    public static string DefaultSocketPath => Path.Combine(Path.GetTempPath(), "netcoreserver-chat.sock");

    /// <summary>Parses the <c>[path]</c> of the Unix socket chat server and client.</summary>
    /// <param name="args">The arguments.</param>
    /// <param name="endpoint">The socket file to listen on or connect to; <see cref="DefaultSocketPath"/> when none is given.</param>
    /// <returns>False when there are too many arguments, or the path is empty or too long for a socket address
    /// (108 bytes on Linux, 104 on macOS, including a terminating zero).</returns>
    public static bool TryParseSocketPath(IReadOnlyList<string> args, [NotNullWhen(true)] out UnixDomainSocketEndPoint? endpoint)
    {
        endpoint = null;
        if (args.Count > 1)
            return false;
        try
        {
            endpoint = new UnixDomainSocketEndPoint(args.Count == 1 ? args[0] : DefaultSocketPath);
            return true;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }

    /// <summary>True when the first argument is a socket file's path (it contains '/'), not a port or an address.</summary>
    /// <param name="args">The positional arguments.</param>
    /// <returns>True for <c>/tmp/http.sock</c> or <c>./http.sock</c>; false for <c>8080</c> or <c>127.0.0.1</c>.</returns>
    public static bool NamesSocketFile(IReadOnlyList<string> args) => args.Count >= 1 && args[0].Contains('/', StringComparison.Ordinal);

    private static bool TryParsePort(string text, bool allowZero, out int port)
        => int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out port)
            && port <= IPEndPoint.MaxPort
            && (allowZero || port > 0);
}
