using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer;

namespace UdpMulticastServer;

/// <summary>Sends to one multicast group (given to Start) and receives nothing: the members only listen.</summary>
internal sealed class MulticastServer : UdpServer
{
    /// <summary>Binds an ephemeral port on every address of the group's family.</summary>
    public MulticastServer(IPAddress group)
        : base(group.AddressFamily == AddressFamily.InterNetworkV6 ? IPAddress.IPv6Any : IPAddress.Any, 0)
    {
    }

    // On the thread that sent: the console's for a refused MulticastAsync, the send loop's for a failed send.
    protected override void OnError(SocketError error)
    {
        Console.WriteLine($"Multicast UDP server caught an error with code {error}");
    }
}
