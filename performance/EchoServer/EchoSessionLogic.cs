using System;
using System.Net.Sockets;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>What an echo session does, whatever its transport: the tcp, ssl and uds sessions forward their hooks here.</summary>
internal static class EchoSessionLogic
{
    /// <summary>Sends the chunk straight back; the send queue copies it, so the receive buffer can be reused at once.</summary>
    public static void Received(StreamSession session, byte[] buffer, long offset, long size) => session.SendAsync(buffer, offset, size);

    /// <summary>Reports a session's error (for ssl, also a failed handshake) on stderr.</summary>
    public static void Error(StreamSession session, SocketError error) => Console.Error.WriteLine($"Echo session {session.Id} caught an error: {error}");

    /// <summary>Reports a server's error on stderr.</summary>
    public static void ServerError(SocketError error) => Console.Error.WriteLine($"Echo server caught an error: {error}");
}
