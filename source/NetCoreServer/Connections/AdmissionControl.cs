using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Connections;

/// <summary>
/// The counts an accepted connection must fit in before it becomes a session: sessions in all, sessions per remote
/// address, and the descriptors left to the process. Lock: <c>_lock</c> guards the counts only; no user code under it.
/// </summary>
internal sealed class AdmissionControl
{
    private readonly object _lock = new();
    private readonly Dictionary<IPAddress, int> _perAddress = new();
    private int _admitted;

    /// <summary>
    /// Counts a connection from <paramref name="address"/> (null: not counted per address), or says which cap refuses
    /// it. A cap of 0 is no cap. On null the caller owns one admission, given back by <see cref="Release"/>.
    /// </summary>
    public RefusalReason? TryCount(Socket socket, IPAddress? address, int maxSessions, int maxPerAddress, int descriptorReserve)
    {
        var limit = Descriptors.Limit;
        // The lowest free descriptor was handed out: descriptor N means N + 1 are open.
        if (descriptorReserve > 0 && limit > 0 && Descriptors.Number(socket) >= limit - descriptorReserve)
            return RefusalReason.DescriptorReserve;
        lock (_lock)
        {
            if (maxSessions > 0 && _admitted >= maxSessions)
                return RefusalReason.ServerFull;
            var count = 0;
            if (address != null && maxPerAddress > 0 && _perAddress.TryGetValue(address, out count) && count >= maxPerAddress)
                return RefusalReason.AddressFull;
            _admitted++;
            if (address != null)
                _perAddress[address] = count + 1;
        }
        return null;
    }

    /// <summary>Gives back what <see cref="TryCount"/> counted for the endpoint the admission was made under (null: none).</summary>
    public void Release(EndPoint? admitted)
    {
        var address = AddressOf(admitted);
        lock (_lock)
        {
            _admitted--;
            if (address == null || !_perAddress.TryGetValue(address, out var count))
                return;
            if (count <= 1)
                _perAddress.Remove(address);
            else
                _perAddress[address] = count - 1;
        }
    }

    /// <summary>
    /// The address a peer is counted under: IPv4-mapped IPv6 addresses count as their IPv4 address; null for an endpoint
    /// without one (Unix sockets) or a peer gone before it was admitted. The same endpoint always gives an equal address.
    /// </summary>
    public static IPAddress? AddressOf(EndPoint? remote)
        => remote is IPEndPoint ip ? (ip.Address.IsIPv4MappedToIPv6 ? ip.Address.MapToIPv4() : ip.Address) : null;

    /// <summary>Closes a refused socket with a reset, not a FIN: the server keeps no FIN_WAIT/TIME_WAIT state for it.</summary>
    public static void Refuse(Socket socket)
    {
        try
        {
            socket.LingerState = new LingerOption(true, 0);
        }
        catch (SocketException)
        {
            // The peer already left; closing is all that is left to do.
        }
        socket.Dispose();
    }
}
