using System;
using System.Net;
using System.Net.Sockets;
using System.Text;

namespace UdpMulticastClient;

/// <summary>A member of a multicast group: binds the group's port (shared with other members) and prints every datagram.</summary>
internal sealed class MulticastClient : NetCoreServer.UdpClient
{
    public MulticastClient(IPAddress listenAddress, int port)
        : base(listenAddress, port)
    {
        // SO_REUSEADDR and a bind to the group's port: every member on this machine listens on the same port.
        SetupMulticast(true);
        OptionContinuousReceive = true;
    }

    // On a pool I/O thread; calls never overlap. One datagram is one whole message, so it decodes on its own.
    protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size)
    {
        Console.WriteLine($"Received from {endpoint}: {Encoding.UTF8.GetString(buffer, checked((int)offset), checked((int)size))}");
    }

    // On the thread that joined or left: the console's.
    protected override void OnJoinedMulticastGroup(IPAddress address)
    {
        Console.WriteLine($"Joined multicast group {address} on port {Port}");
    }

    protected override void OnLeftMulticastGroup(IPAddress address)
    {
        Console.WriteLine($"Left multicast group {address}");
    }

    protected override void OnError(SocketError error)
    {
        Console.WriteLine($"Multicast UDP client caught an error with code {error}");
    }
}
