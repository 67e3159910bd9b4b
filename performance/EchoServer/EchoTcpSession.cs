using System;
using System.Net.Sockets;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>Sends every received chunk straight back; the send queue copies it, so the receive buffer can be reused at once.</summary>
internal sealed class EchoTcpSession(TcpServer server) : TcpSession(server)
{
    protected override void OnReceived(byte[] buffer, long offset, long size) => SendAsync(buffer, offset, size);

    protected override void OnError(SocketError error) => Console.Error.WriteLine($"Echo session {Id} caught an error: {error}");
}
