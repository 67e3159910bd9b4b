using System;
using System.Net.Sockets;
using NetCoreServer;
using NetCoreServer.Examples;

namespace WsChatServer;

/// <summary>One chat user, from a console client or the chat page: greeted once upgraded, and every message it sends
/// goes to every upgraded session as one text message.</summary>
internal sealed class ChatSession : WsSession
{
    private readonly WsServer _server;

    public ChatSession(WsServer server)
        : base(server)
    {
        _server = server;
    }

    public override void OnWsConnected(HttpRequest request)
    {
        Console.WriteLine($"Chat WS session with Id {Id} connected! (upgraded {request.Url})");
        SendTextAsync(WsChat.Welcome("WS"));
    }

    public override void OnWsDisconnected() => Console.WriteLine($"Chat WS session with Id {Id} disconnected ({DisconnectReason})");

    public override void OnWsReceived(byte[] buffer, long offset, long size) => _server.MulticastText(WsChat.Incoming(buffer, offset, size));

    protected override void OnError(SocketError error)
    {
        Console.WriteLine($"Chat WS session caught an error with code {error}");
    }
}
