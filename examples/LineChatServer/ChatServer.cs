using System;
using System.Net;
using System.Net.Sockets;
using System.Text;
using NetCoreServer;

namespace LineChatServer;

/// <summary>The line chat server: its sessions speak lines of at most 4 KiB (<see cref="MessageFraming.Lines"/>).</summary>
internal sealed class ChatServer : TcpServer
{
    public ChatServer(IPAddress address, int port)
        : base(address, port)
    {
        Framing = MessageFraming.Lines(4096);
    }

    protected override TcpSession CreateSession() => new ChatSession(this);

    protected override void OnError(SocketError error) => Console.WriteLine($"Chat Line server caught an error with code {error}");

    /// <summary>One connected user: every whole line it sends goes to everyone, as one line.</summary>
    private sealed class ChatSession(TcpServer server) : TcpSession(server)
    {
        protected override void OnConnected()
        {
            Console.WriteLine($"Chat Line session with Id {Id} connected!");
            SendMessageAsync("Welcome to the Line chat! Every line you send is delivered to everyone connected.");
        }

        protected override void OnDisconnected() => Console.WriteLine($"Chat Line session with Id {Id} disconnected ({DisconnectReason})");

        protected override void OnReceivedMessage(ReadOnlySpan<byte> line)
        {
            Console.WriteLine($"Incoming: {Encoding.UTF8.GetString(line)}");
            ((ChatServer)Server).MulticastMessage(line);
        }

        protected override void OnError(SocketError error) => Console.WriteLine($"Chat Line session caught an error with code {error}");
    }
}
