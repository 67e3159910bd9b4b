using System;
using System.Net.Sockets;
using NetCoreServer;
using NetCoreServer.Examples;

namespace WssChatServer;

/// <summary>One chat user over TLS, from a console client or the chat page: greeted once upgraded, and every message
/// it sends goes to every upgraded session as one text message.</summary>
internal sealed class ChatSession : WssSession
{
    private readonly WssServer _server;

    public ChatSession(WssServer server)
        : base(server)
    {
        _server = server;
    }

    public override void OnWsConnected(HttpRequest request)
    {
        Console.WriteLine($"Chat WSS session with Id {Id} connected! (upgraded {request.Url} after the TLS handshake)");
        SendTextAsync(WsChat.Welcome("WSS"));
    }

    public override void OnWsDisconnected() => Console.WriteLine($"Chat WSS session with Id {Id} disconnected ({DisconnectReason})");

    public override void OnWsReceived(byte[] buffer, long offset, long size) => _server.MulticastText(WsChat.Incoming(buffer, offset, size));

    protected override void OnError(SocketError error)
    {
        // A failed handshake lands here too: a browser or client that does not trust the certificate.
        var reason = HandshakeException is { } exception && !IsHandshaked ? $": {exception.Message}" : "";
        Console.WriteLine($"Chat WSS session caught an error with code {error}{reason}");
    }
}
