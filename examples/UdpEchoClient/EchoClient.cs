using System;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace UdpEchoClient;

/// <summary>Sends datagrams to the echo server and prints every datagram that comes back.</summary>
internal sealed class EchoClient : NetCoreServer.UdpClient
{
    public EchoClient(string address, int port)
        : base(address, port)
    {
        OptionContinuousReceive = true;
    }

    // On the thread calling Connect: the console's.
    protected override void OnConnected()
    {
        Console.WriteLine($"Echo UDP client bound to {Socket.LocalEndPoint}, sending to {Endpoint}");
    }

    // On a pool I/O thread; calls never overlap. Anyone may send to this port, so the sender is printed too.
    protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size)
    {
        Console.WriteLine($"Echo from {endpoint}: {Encoding.UTF8.GetString(buffer, checked((int)offset), checked((int)size))}");
    }

    protected override void OnError(SocketError error)
    {
        Console.WriteLine($"Echo UDP client caught an error with code {error}");
    }
}
