using System;
using System.Net.Sockets;

namespace NetCoreServer.Examples;

/// <summary>
/// Starting and restarting the stream servers of the examples (chat, HTTP), with the reason on stderr when the
/// address cannot be had, so every server reports a port in use the same way.
/// </summary>
public static class StreamServerStartup
{
    /// <summary>Starts <paramref name="server"/>; on failure says why on stderr.</summary>
    /// <typeparam name="TSession">The server's session type.</typeparam>
    /// <param name="server">The server, not started yet.</param>
    /// <param name="name">What the messages call it, such as <c>chat server</c>.</param>
    /// <returns>True when it listens.</returns>
    public static bool TryStart<TSession>(StreamServer<TSession> server, string name)
        where TSession : StreamSession
    {
        try
        {
            if (server.Start())
                return true;
            Console.Error.WriteLine($"The {name} did not start on {server.Endpoint}");
            return false;
        }
        catch (SocketException exception)
        {
            Console.Error.WriteLine($"The {name} cannot listen on {server.Endpoint}: {exception.SocketErrorCode}");
            return false;
        }
    }

    /// <summary>Stops and starts <paramref name="server"/> again on the same endpoint; on failure says why on stderr.</summary>
    /// <typeparam name="TSession">The server's session type.</typeparam>
    /// <param name="server">The running server.</param>
    /// <param name="name">What the messages call it, such as <c>chat server</c>.</param>
    /// <returns>True when it listens again.</returns>
    public static bool Restart<TSession>(StreamServer<TSession> server, string name)
        where TSession : StreamSession
    {
        try
        {
            return server.Restart();
        }
        catch (SocketException exception)
        {
            // Another process may have taken the port in the moment it was free.
            Console.Error.WriteLine($"The {name} cannot listen again on {server.Endpoint}: {exception.SocketErrorCode}");
            return false;
        }
    }
}
