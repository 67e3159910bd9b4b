using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer;

namespace SslChatServer;

/// <summary>The chat server: every accepted connection becomes a <see cref="ChatSession"/> speaking TLS.</summary>
internal sealed class ChatServer : SslServer
{
    public ChatServer(SslContext context, IPAddress address, int port)
        : base(context, address, port)
    {
    }

    protected override SslSession CreateSession() => new ChatSession(this);

    protected override void OnError(SocketError error)
    {
        Console.WriteLine($"Chat SSL server caught an error with code {error}");
    }
}
