using System.Net.Sockets;
using NetCoreServer;

namespace TcpChat;

/// <summary>One connected user: greeted once, and every byte it sends goes to everyone connected (itself included).</summary>
internal sealed class ChatSession : TcpSession
{
    public ChatSession(TcpServer server)
        : base(server)
    {
    }

    protected override void OnConnected()
    {
        Console.WriteLine($"Session {Id} connected");
        SendAsync("Welcome to TcpChat! Every line you send goes to everyone connected.\n");
    }

    protected override void OnDisconnected() => Console.WriteLine($"Session {Id} disconnected ({DisconnectReason})");

    // Runs on this session's receive side, never overlapping itself; the buffer is only valid during the call, and
    // Multicast copies it. Bytes are relayed as they come: a line read in two pieces may reach others in two pieces.
    protected override void OnReceived(byte[] buffer, long offset, long size) => Server.Multicast(buffer, offset, size);

    protected override void OnError(SocketError error) => Console.Error.WriteLine($"Session {Id} error: {error}");
}
