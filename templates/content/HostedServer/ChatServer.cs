using System.Net.Sockets;
using NetCoreServer;

namespace HostedServer;

/// <summary>The chat server: every accepted connection becomes a <see cref="ChatSession"/>.</summary>
internal sealed class ChatServer : TcpServer
{
    public ChatServer(string address, int port)
        : base(address, port)
    {
    }

    protected override TcpSession CreateSession() => new ChatSession(this);

    protected override void OnError(SocketError error) => Console.Error.WriteLine($"Server error: {error}");
}
