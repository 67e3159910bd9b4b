using System;
using System.Net.Sockets;
using NetCoreServer;
using NetCoreServer.Examples;

namespace ScaleOutChat;

/// <summary>One chat user connected to this node.</summary>
internal sealed class ChatUser(ChatNode node) : WsSession(node)
{
    public override void OnWsConnected(HttpRequest request)
    {
        Console.WriteLine($"Chat WS session with Id {Id} connected! (upgraded {request.Url})");
        SendTextAsync(WsChat.Welcome("WS"));
    }

    public override void OnWsDisconnected() => Console.WriteLine($"Chat WS session with Id {Id} disconnected ({DisconnectReason})");

    public override void OnWsReceived(byte[] buffer, long offset, long size) => node.MulticastText(WsChat.Incoming(buffer, offset, size));

    protected override void OnError(SocketError error) => Console.WriteLine($"Chat WS session caught an error with code {error}");
}
