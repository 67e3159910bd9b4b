using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Udp;

namespace NetCoreServer;

public abstract partial class DatagramPeer
{
    /// <summary>On an IPv6 socket, also send to and receive from IPv4 peers (default false). Applied when the socket opens.</summary>
    public bool OptionDualMode { get; set; }

    /// <summary>Set SO_REUSEADDR before binding (default false), so several sockets can bind one port, as multicast receivers do.</summary>
    public bool OptionReuseAddress { get; set; }

    /// <summary>Set SO_EXCLUSIVEADDRUSE before binding (Windows only; ignored elsewhere; default false).</summary>
    public bool OptionExclusiveAddressUse { get; set; }

    /// <summary>
    /// Kernel receive buffer (SO_RCVBUF) in bytes; 0 (the default) keeps the system value. Datagrams that arrive while
    /// it is full are dropped by the kernel, so raise it for bursts (Linux caps it at net.core.rmem_max).
    /// </summary>
    /// <remarks>
    /// Unlike the stream classes' <c>OptionReceiveBufferSize</c> (the first in-process buffer), this sizes the kernel's
    /// buffer, as in NetCoreServer's UDP classes; the in-process buffer is one datagram of <see cref="OptionReceiveBufferLimit"/>.
    /// </remarks>
    public int OptionReceiveBufferSize { get; set; }

    /// <summary>Kernel send buffer (SO_SNDBUF) in bytes; 0 (the default) keeps the system value.</summary>
    public int OptionSendBufferSize { get; set; }

    /// <summary>
    /// Largest datagram delivered, in bytes: the size of the pooled buffer a datagram is received into. 0 (the default)
    /// means 65,536, enough for any UDP datagram. A longer datagram is dropped and reported to <see cref="OnError"/> as
    /// <see cref="SocketError.MessageSize"/>; a smaller limit saves memory when the protocol's datagrams are small.
    /// </summary>
    public int OptionReceiveBufferLimit
    {
        get => _options.ReceiveBufferLimit;
        set => _options.ReceiveBufferLimit = value;
    }

    /// <summary>
    /// Most bytes that <c>SendAsync</c> may hold (queued plus being sent). A <c>SendAsync</c> that would pass it returns
    /// false and raises <see cref="OnError"/> with <see cref="SocketError.NoBufferSpaceAvailable"/>; nothing is queued.
    /// Protects the process when datagrams are produced faster than the socket can send them. Default 4 MiB;
    /// 0 means unlimited.
    /// </summary>
    public int OptionSendBufferLimit
    {
        get => (int)Math.Min(_options.SendBufferLimit, int.MaxValue);
        set => _options.SendBufferLimit = value;
    }

    /// <summary>
    /// Keep receiving without calling <see cref="ReceiveAsync"/> for every datagram (default false, NetCoreServer's
    /// one-shot model). When true, receiving starts by itself after OnStarted (server) or OnConnected (client), and each
    /// datagram is followed by the next receive as soon as <see cref="OnReceived"/> returns. Can be changed at any time:
    /// turned on while the socket is open, receiving starts at once; turned off, it stops after the next datagram.
    /// </summary>
    public bool OptionContinuousReceive
    {
        get => _options.ContinuousReceive;
        set
        {
            _options.ContinuousReceive = value;
            if (value)
                OpenEngine?.RequestReceive();
        }
    }

    /// <summary>
    /// Receive on a thread of this socket's own with blocking calls instead of the runtime's socket engine (default
    /// false; read when the socket opens). <see cref="OnReceived"/>, and a <c>SendAsync</c> made from it, then run on that thread.
    /// </summary>
    /// <remarks>
    /// Costs one thread per socket, parked in the kernel while no datagram comes; a hook that blocks holds up this
    /// socket's receiving. Queued datagrams are sent with blocking calls, which wait only while the kernel's send buffer
    /// is full. Suits servers that handle datagrams as they come, with <see cref="OptionContinuousReceive"/>
    /// (docs/design/transports.md).
    /// </remarks>
    public bool OptionReceiveThread
    {
        get => _options.ReceiveThread;
        set => _options.ReceiveThread = value;
    }

    /// <summary>
    /// Local IPv4 address of the network interface that multicast goes out of and groups are joined on (IP_MULTICAST_IF);
    /// null (the default) lets the routing table choose. Applied when the socket opens and when joining a group.
    /// </summary>
    public IPAddress? OptionMulticastInterface { get; set; }

    /// <summary>
    /// Index of the network interface for IPv6 multicast (IPV6_MULTICAST_IF and group membership); 0 (the default) lets
    /// the routing table choose. For IPv4 it is used when <see cref="OptionMulticastInterface"/> is null. See
    /// <see cref="System.Net.NetworkInformation.IPv6InterfaceProperties.Index"/>.
    /// </summary>
    public int OptionMulticastInterfaceIndex { get; set; }

    /// <summary>
    /// Deliver multicast sent by this socket to listeners on this host too (IP_MULTICAST_LOOP; default true, the
    /// system default). Applied when the socket opens.
    /// </summary>
    public bool OptionMulticastLoopback { get; set; } = true;

    /// <summary>Bytes accepted by <c>SendAsync</c> and not yet handed to the socket.</summary>
    public long BytesPending => Engine?.BytesPending ?? 0;

    /// <summary>Bytes of the datagram being handed to the socket right now.</summary>
    public long BytesSending => Engine?.BytesSending ?? 0;

    /// <summary>Bytes sent since the socket opened (Start or Connect).</summary>
    public long BytesSent => Engine?.BytesSent ?? 0;

    /// <summary>Bytes received since the socket opened (Start or Connect).</summary>
    public long BytesReceived => Engine?.BytesReceived ?? 0;

    /// <summary>Datagrams sent since the socket opened (Start or Connect).</summary>
    public long DatagramsSent => Engine?.DatagramsSent ?? 0;

    /// <summary>Datagrams received since the socket opened (Start or Connect).</summary>
    public long DatagramsReceived => Engine?.DatagramsReceived ?? 0;

    private void ApplyMulticastOptions(Socket socket)
    {
        var ipv6 = socket.AddressFamily == AddressFamily.InterNetworkV6;
        if (ipv6 && OptionMulticastInterfaceIndex > 0)
            socket.SetSocketOption(SocketOptionLevel.IPv6, SocketOptionName.MulticastInterface, OptionMulticastInterfaceIndex);
        if (!ipv6 && OptionMulticastInterface != null)
        {
            // IP_MULTICAST_IF takes the interface address as an in_addr: the address bytes in network order.
            socket.SetSocketOption(SocketOptionLevel.IP, SocketOptionName.MulticastInterface,
                BitConverter.ToInt32(OptionMulticastInterface.GetAddressBytes(), 0));
        }
        else if (!ipv6 && OptionMulticastInterfaceIndex > 0)
        {
            // An index in network byte order selects the interface by index (Windows documents it; the runtime maps it
            // to ip_mreqn on Linux).
            socket.SetSocketOption(SocketOptionLevel.IP, SocketOptionName.MulticastInterface, IPAddress.HostToNetworkOrder(OptionMulticastInterfaceIndex));
        }
        if (!OptionMulticastLoopback)
            socket.SetSocketOption(ipv6 ? SocketOptionLevel.IPv6 : SocketOptionLevel.IP, SocketOptionName.MulticastLoopback, false);
    }
}
