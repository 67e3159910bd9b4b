using System.Net;
using System.Net.Sockets;
using NetCoreServer;

namespace TcpChat;

/// <summary>The chat server: every accepted connection becomes a <see cref="ChatSession"/>.</summary>
internal sealed class ChatServer : TcpServer
{
    public ChatServer(IPAddress address, int port)
        : base(address, port)
    {
    }

    protected override TcpSession CreateSession() => new ChatSession(this);

    protected override void OnError(SocketError error) => Console.Error.WriteLine($"Server error: {error}");
}
