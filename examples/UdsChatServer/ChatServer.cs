using System;
using System.Net.Sockets;
using NetCoreServer;

namespace UdsChatServer;

/// <summary>The chat server on a socket file: every accepted connection becomes a <see cref="ChatSession"/>.</summary>
internal sealed class ChatServer : UdsServer
{
    public ChatServer(UnixDomainSocketEndPoint endpoint)
        : base(endpoint)
    {
    }

    protected override UdsSession CreateSession() => new ChatSession(this);

    protected override void OnError(SocketError error)
    {
        Console.WriteLine($"Chat Unix socket server caught an error with code {error}");
    }
}
