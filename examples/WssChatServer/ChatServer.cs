using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer;
using NetCoreServer.Examples;

namespace WssChatServer;

/// <summary>
/// The secure WebSocket chat server: serves the chat page under <see cref="WsChat.PagePrefix"/> over HTTPS, and every
/// connection that asks to upgrade after the TLS handshake becomes a <see cref="ChatSession"/>.
/// </summary>
internal sealed class ChatServer : WssServer
{
    public ChatServer(SslContext context, IPAddress address, int port)
        : base(context, address, port)
    {
        WsChat.AddPage((path, prefix) => AddStaticContent(path, prefix));
    }

    protected override SslSession CreateSession() => new ChatSession(this);

    protected override void OnError(SocketError error)
    {
        Console.WriteLine($"Chat WSS server caught an error with code {error}");
    }
}
