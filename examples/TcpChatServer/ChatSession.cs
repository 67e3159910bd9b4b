using System;
using System.Buffers;
using System.Net.Sockets;
using System.Text;
using NetCoreServer;

namespace TcpChatServer;

/// <summary>One connected chat user: greets on connect and relays everything it receives to every session.</summary>
internal sealed class ChatSession : TcpSession
{
    // A UTF-8 character may be split between two receives; the decoder keeps the partial bytes until the rest arrives.
    // OnReceived calls of one session never overlap, so one decoder per session needs no lock.
    private readonly Decoder _decoder = Encoding.UTF8.GetDecoder();

    public ChatSession(TcpServer server)
        : base(server)
    {
    }

    protected override void OnConnected()
    {
        Console.WriteLine($"Chat TCP session with Id {Id} connected!");
        SendAsync("Welcome to the TCP chat! Every line you send is delivered to everyone connected.\n");
    }

    protected override void OnDisconnected()
    {
        Console.WriteLine($"Chat TCP session with Id {Id} disconnected ({DisconnectReason})");
    }

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        var bytes = buffer.AsSpan(checked((int)offset), checked((int)size));
        var chars = ArrayPool<char>.Shared.Rent(Encoding.UTF8.GetMaxCharCount(bytes.Length));
        try
        {
            var count = _decoder.GetChars(bytes, chars, flush: false);
            if (count == 0)
                return;
            var text = new string(chars, 0, count);
            Console.WriteLine($"Incoming: {text.TrimEnd('\r', '\n')}");
            Server.Multicast(text);
        }
        finally
        {
            ArrayPool<char>.Shared.Return(chars);
        }
    }

    protected override void OnError(SocketError error)
    {
        Console.WriteLine($"Chat TCP session caught an error with code {error}");
    }
}
