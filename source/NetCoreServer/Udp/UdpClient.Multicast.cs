using System;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer;

public partial class UdpClient
{
    // Linux <netinet/in.h>: IPPROTO_IP, IP_MULTICAST_ALL, IPPROTO_IPV6, IPV6_MULTICAST_ALL.
    private const int LinuxIPLevel = 0;
    private const int LinuxIPMulticastAll = 49;
    private const int LinuxIPv6Level = 41;
    private const int LinuxIPv6MulticastAll = 29;

    /// <summary>
    /// Prepares (or stops preparing) the client to receive multicast: sets <see cref="DatagramPeer.OptionReuseAddress"/>
    /// so several receivers on this host can share the port, and <see cref="OptionMulticast"/> so Connect binds the
    /// endpoint's port on any address. Call before <see cref="Connect"/>; then <see cref="JoinMulticastGroup(IPAddress)"/>.
    /// </summary>
    /// <param name="enable">True to receive multicast.</param>
    public virtual void SetupMulticast(bool enable)
    {
        OptionReuseAddress = enable;
        OptionMulticast = enable;
    }

    /// <summary>
    /// Joins a multicast group (IPv4 or IPv6) on the interface chosen by <see cref="DatagramPeer.OptionMulticastInterface"/>
    /// or <see cref="DatagramPeer.OptionMulticastInterfaceIndex"/> (by default the routing table's), then raises
    /// <see cref="OnJoinedMulticastGroup"/> on this thread.
    /// </summary>
    /// <param name="address">The group address.</param>
    /// <exception cref="InvalidOperationException">The client is not connected.</exception>
    /// <exception cref="SocketException">The system refused the membership.</exception>
    public virtual void JoinMulticastGroup(IPAddress address)
    {
        SetMembership(address, SocketOptionName.AddMembership);
        OnJoinedMulticastGroup(address);
    }

    /// <summary>
    /// Joins a multicast group given as an IP address literal (NetCoreServer's string overload); see
    /// <see cref="JoinMulticastGroup(IPAddress)"/>. Raises <see cref="OnJoinedMulticastGroup"/> on this thread.
    /// </summary>
    /// <param name="address">The group address, such as "239.255.0.1" or "ff12::1".</param>
    /// <exception cref="FormatException"><paramref name="address"/> is not an IP address.</exception>
    /// <exception cref="InvalidOperationException">The client is not connected.</exception>
    /// <exception cref="SocketException">The system refused the membership.</exception>
    public virtual void JoinMulticastGroup(string address) => JoinMulticastGroup(IPAddress.Parse(address));

    /// <summary>Leaves a multicast group joined with <see cref="JoinMulticastGroup(IPAddress)"/>, then raises <see cref="OnLeftMulticastGroup"/> on this thread.</summary>
    /// <param name="address">The group address.</param>
    /// <exception cref="InvalidOperationException">The client is not connected.</exception>
    /// <exception cref="SocketException">The system refused (for example, the group was not joined).</exception>
    public virtual void LeaveMulticastGroup(IPAddress address)
    {
        SetMembership(address, SocketOptionName.DropMembership);
        OnLeftMulticastGroup(address);
    }

    /// <summary>
    /// Leaves a multicast group given as an IP address literal (NetCoreServer's string overload); see
    /// <see cref="LeaveMulticastGroup(IPAddress)"/>. Raises <see cref="OnLeftMulticastGroup"/> on this thread.
    /// </summary>
    /// <param name="address">The group address, such as "239.255.0.1" or "ff12::1".</param>
    /// <exception cref="FormatException"><paramref name="address"/> is not an IP address.</exception>
    /// <exception cref="InvalidOperationException">The client is not connected.</exception>
    /// <exception cref="SocketException">The system refused (for example, the group was not joined).</exception>
    public virtual void LeaveMulticastGroup(string address) => LeaveMulticastGroup(IPAddress.Parse(address));

    /// <summary>Called after a multicast group was joined, on the thread that joined it.</summary>
    /// <param name="address">The group address.</param>
    protected virtual void OnJoinedMulticastGroup(IPAddress address)
    {
    }

    /// <summary>Called after a multicast group was left, on the thread that left it.</summary>
    /// <param name="address">The group address.</param>
    protected virtual void OnLeftMulticastGroup(IPAddress address)
    {
    }

    private protected override void PrepareSocket(Socket socket)
    {
        if (!OptionMulticast || !OperatingSystem.IsLinux())
            return;
        // Linux delivers to a socket bound to the group's port every group joined by any socket on the host
        // (IP_MULTICAST_ALL defaults to 1), so a receiver that left a group would keep getting it while a neighbour
        // is still a member. Turn that off: a client receives the groups it joined. Older kernels lack the IPv6
        // option; they keep the system behaviour.
        try
        {
            if (socket.AddressFamily == AddressFamily.InterNetworkV6)
                socket.SetRawSocketOption(LinuxIPv6Level, LinuxIPv6MulticastAll, [0, 0, 0, 0]);
            if (socket.AddressFamily == AddressFamily.InterNetwork || socket.DualMode)
                socket.SetRawSocketOption(LinuxIPLevel, LinuxIPMulticastAll, [0, 0, 0, 0]);
        }
        catch (SocketException)
        {
        }
    }

    private void SetMembership(IPAddress group, SocketOptionName option)
    {
        var socket = OpenEngine?.Socket ?? throw new InvalidOperationException("The UDP client is not connected.");
        if (group.AddressFamily == AddressFamily.InterNetworkV6)
        {
            socket.SetSocketOption(SocketOptionLevel.IPv6, option, new IPv6MulticastOption(group, OptionMulticastInterfaceIndex));
            return;
        }
        var membership = OptionMulticastInterface != null
            ? new MulticastOption(group, OptionMulticastInterface)
            : OptionMulticastInterfaceIndex > 0 ? new MulticastOption(group, OptionMulticastInterfaceIndex) : new MulticastOption(group);
        socket.SetSocketOption(SocketOptionLevel.IP, option, membership);
    }
}
