using System;
using System.Net.Sockets;
using NetCoreServer;
using NetCoreServer.Examples;

namespace SslChatServer;

/// <summary>One connected chat user: greets once the TLS handshake is done and relays everything it receives to every session.</summary>
internal sealed class ChatSession : SslSession
{
    // OnReceived calls of one session never overlap, so one decoder per session needs no lock.
    private readonly Utf8ChunkDecoder _decoder = new();

    public ChatSession(SslServer server)
        : base(server)
    {
    }

    protected override void OnConnected()
    {
        Console.WriteLine($"Chat SSL session with Id {Id} connected!");
    }

    protected override void OnHandshaked()
    {
        var client = RemoteCertificate is { } certificate ? $"client certificate {certificate.Subject}" : "no client certificate";
        Console.WriteLine($"Chat SSL session with Id {Id} handshaked! ({client})");
        // Sent after the handshake, not in OnConnected: the welcome is then the first thing the peer can read.
        SendAsync("Welcome to the SSL chat! Every line you send is delivered to everyone connected.\n");
    }

    protected override void OnDisconnected()
    {
        Console.WriteLine($"Chat SSL session with Id {Id} disconnected ({DisconnectReason})");
    }

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        var text = _decoder.Decode(buffer.AsSpan(checked((int)offset), checked((int)size)));
        if (text.Length == 0)
            return;
        Console.WriteLine($"Incoming: {text.TrimEnd('\r', '\n')}");
        Server.Multicast(text);
    }

    protected override void OnError(SocketError error)
    {
        // A failed handshake lands here too: AccessDenied for a rejected certificate, TimedOut for a silent peer.
        var reason = HandshakeException is { } exception && !IsHandshaked ? $": {exception.Message}" : "";
        Console.WriteLine($"Chat SSL session caught an error with code {error}{reason}");
    }
}
