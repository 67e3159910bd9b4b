using System.Net.Sockets;
using NetCoreServer;

namespace WsChat;

/// <summary>One chat user (the page or any WebSocket client): greeted once upgraded, and every message it sends goes
/// to every upgraded session as one text message.</summary>
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
        Console.WriteLine($"Session {Id} joined (upgraded {request.Url})");
        SendTextAsync("Welcome to WsChat! Every message you send goes to everyone connected.");
    }

    public override void OnWsDisconnected() => Console.WriteLine($"Session {Id} left ({DisconnectReason})");

    // The buffer holds one whole message and is only valid during the call; MulticastText copies it.
    public override void OnWsReceived(byte[] buffer, long offset, long size) => _server.MulticastText(buffer, offset, size);

    protected override void OnError(SocketError error) => Console.Error.WriteLine($"Session {Id} error: {error}");
}
