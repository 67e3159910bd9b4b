using System;
using System.Net.Sockets;
using NetCoreServer;
using NetCoreServer.Examples;

namespace UdsChatServer;

/// <summary>One connected chat user: greets on connect and relays everything it receives to every session.</summary>
internal sealed class ChatSession : UdsSession
{
    // OnReceived calls of one session never overlap, so one decoder per session needs no lock.
    private readonly Utf8ChunkDecoder _decoder = new();

    public ChatSession(UdsServer server)
        : base(server)
    {
    }

    protected override void OnConnected()
    {
        Console.WriteLine($"Chat Unix socket session with Id {Id} connected!");
        SendAsync("Welcome to the Unix socket chat! Every line you send is delivered to everyone connected.\n");
    }

    protected override void OnDisconnected()
    {
        Console.WriteLine($"Chat Unix socket session with Id {Id} disconnected ({DisconnectReason})");
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
        Console.WriteLine($"Chat Unix socket session caught an error with code {error}");
    }
}
