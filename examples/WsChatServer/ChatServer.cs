using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer;
using NetCoreServer.Examples;

namespace WsChatServer;

/// <summary>
/// The WebSocket chat server: serves the chat page under <see cref="WsChat.PagePrefix"/> as plain HTTP, and every
/// connection that asks to upgrade becomes a <see cref="ChatSession"/>.
/// </summary>
internal sealed class ChatServer : WsServer
{
    public ChatServer(IPAddress address, int port)
        : base(address, port)
    {
        WsChat.AddPage((path, prefix) => AddStaticContent(path, prefix));
    }

    // On a socket file: WsChatClient PATH, or the npm ws package's ws+unix://PATH:/ URL.
    public ChatServer(UnixDomainSocketEndPoint endpoint)
        : base(endpoint)
    {
        WsChat.AddPage((path, prefix) => AddStaticContent(path, prefix));
    }

    protected override TcpSession CreateSession() => new ChatSession(this);

    protected override void OnError(SocketError error)
    {
        Console.WriteLine($"Chat WS server caught an error with code {error}");
    }
}
