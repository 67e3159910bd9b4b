using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer;
using NetCoreServer.Examples;

namespace ScaleOutChat;

/// <summary>
/// One node of the chat: the WebSocket chat server of WsChatServer (page, welcome, every message to everyone). Its
/// MulticastText reaches the users of every node once a backplane is attached; nothing else here knows about Redis.
/// </summary>
internal sealed class ChatNode : WsServer
{
    public ChatNode(IPAddress address, int port)
        : base(address, port)
        => WsChat.AddPage((path, prefix) => AddStaticContent(path, prefix));

    protected override TcpSession CreateSession() => new ChatUser(this);

    protected override void OnError(SocketError error) => Console.WriteLine($"Chat node caught an error with code {error}");
}
