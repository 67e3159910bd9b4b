using System;
using System.Net;
using System.Net.Sockets;
using System.Text;
using NetCoreServer;

namespace UdpEchoServer;

/// <summary>Sends every datagram back to its sender.</summary>
internal sealed class EchoServer : UdpServer
{
    private const int PrintedCharacters = 100;

    public EchoServer(IPAddress address, int port)
        : base(address, port)
    {
        // Receiving goes on by itself after every datagram. NetCoreServer's one-shot style (ReceiveAsync from OnStarted
        // and OnSent) works as well, but stalls for good if a send fails and OnSent never comes.
        OptionContinuousReceive = true;
    }

    // On a pool I/O thread; calls never overlap. The buffer is pooled and valid only during the call: SendAsync copies it.
    protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size)
    {
        var text = Encoding.UTF8.GetString(buffer, checked((int)offset), checked((int)size)).TrimEnd('\r', '\n');
        Console.WriteLine(text.Length <= PrintedCharacters
            ? $"Incoming from {endpoint}: {text}"
            : $"Incoming from {endpoint}: {text[..PrintedCharacters]}... ({size} bytes)");
        // A refusal (the send queue is full) is reported to OnError; the datagram is then lost, as UDP allows.
        SendAsync(endpoint, buffer, offset, size);
    }

    protected override void OnError(SocketError error)
    {
        Console.WriteLine($"Echo UDP server caught an error with code {error}");
    }
}
