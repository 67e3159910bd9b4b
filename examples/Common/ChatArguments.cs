using System.Collections.Generic;
using System.Globalization;
using System.Net;

namespace NetCoreServer.Examples;

/// <summary>The positional arguments of the chat examples: <c>[port] [address]</c> for servers, <c>[address] [port]</c> for clients.</summary>
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

    private static bool TryParsePort(string text, bool allowZero, out int port)
        => int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out port)
            && port <= IPEndPoint.MaxPort
            && (allowZero || port > 0);
}
