using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Core;

namespace NetCoreServer;

// Admission: the caps an accepted connection must pass before it becomes a session. A refused connection is reset at
// once (no session, no hooks of its own), so a flood costs one accept and one close per connection.
public abstract partial class StreamServer<TSession>
{
    /// <summary>Default of <see cref="OptionDescriptorReserve"/>.</summary>
    public const int DefaultDescriptorReserve = 256;

    private readonly object _admissionLock = new();
    private readonly Dictionary<IPAddress, int> _perAddress = new();
    private int _admitted;

    /// <summary>
    /// Most sessions at once; a connection beyond it is closed at once and reported to <see cref="OnRefused"/> with
    /// <see cref="RefusalReason.ServerFull"/>, and the other sessions are not disturbed. 0 (the default) sets no count:
    /// <see cref="OptionDescriptorReserve"/> still bounds the sessions by what the process can hold.
    /// </summary>
    public int OptionMaxSessions { get; set; }

    /// <summary>
    /// Most sessions from one remote IP address (IPv4-mapped IPv6 addresses count as their IPv4 address); a connection
    /// beyond it is refused with <see cref="RefusalReason.AddressFull"/>. 0 (the default) sets no per-address cap, because
    /// many legitimate clients can share one address (NAT, a proxy, loopback benchmarks).
    /// </summary>
    /// <exception cref="System.NotSupportedException">Set on a Unix-socket server: its peers have no address.</exception>
    public int OptionMaxSessionsPerAddress
    {
        get => _maxSessionsPerAddress;
        set => _maxSessionsPerAddress = TcpOnly(value);
    }

    private int _maxSessionsPerAddress;

    /// <summary>
    /// Descriptors kept free for the rest of the process (files, outgoing connections, the runtime's own): a connection
    /// accepted when fewer than this many remain under the process's limit (RLIMIT_NOFILE) is closed at once and refused
    /// with <see cref="RefusalReason.DescriptorReserve"/>, so accepted sockets alone never bring the process to its
    /// descriptor limit. Default <see cref="DefaultDescriptorReserve"/>; 0 turns the check off. Linux only (elsewhere
    /// the limit is not read and nothing is refused for it).
    /// </summary>
    public int OptionDescriptorReserve { get; set; } = DefaultDescriptorReserve;

    /// <summary>
    /// Called for each accepted connection that passed the caps, before its session is created, on the accepting thread.
    /// Return false to refuse it without throwing: it is closed at once and <see cref="OnRefused"/> reports it with
    /// <see cref="RefusalReason.Refused"/>. A hook that throws refuses the connection too (the exception goes to
    /// <see cref="OnHandlerException"/>). The default accepts every connection.
    /// </summary>
    /// <param name="remoteEndPoint">The peer's address and port; for Unix sockets usually an unnamed endpoint; null when the peer already left.</param>
    /// <returns>True to accept the connection.</returns>
    protected virtual bool OnAccepting(EndPoint? remoteEndPoint) => true;

    /// <summary>
    /// Called on the accepting thread for each connection closed at once instead of becoming a session: over a cap, or
    /// refused by <see cref="OnAccepting"/>. No session hooks run for it. Under a flood this runs once per refused
    /// connection: count here rather than log each one.
    /// </summary>
    /// <param name="remoteEndPoint">The peer's endpoint, when known.</param>
    /// <param name="reason">Which cap refused it.</param>
    protected virtual void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason)
    {
    }

    /// <summary>
    /// Counts an accepted socket against the caps and asks <see cref="OnAccepting"/>. False when it was refused: then it
    /// is already closed and reported. On true the caller owns one admission, given back by <see cref="ReleaseAdmission"/>
    /// with <paramref name="admitted"/>: the peer's endpoint when it was counted under an address, else null.
    /// </summary>
    private bool Admit(Socket socket, out EndPoint? admitted)
    {
        EndPoint? remote;
        try
        {
            remote = socket.RemoteEndPoint;
        }
        catch (SocketException)
        {
            remote = null;
        }
        var address = AdmissionAddress(remote);
        admitted = address == null ? null : remote;

        var refusal = CountLocked(socket, address);
        if (refusal == null)
        {
            var accepted = false;
            Hooks.Run(this, HookKind.Other, remote, (server, endpoint) => accepted = server.OnAccepting(endpoint), static (server, exception) => server.ReportHandlerException(exception));
            if (accepted)
                return true;
            ReleaseAdmission(admitted);
            refusal = RefusalReason.Refused;
        }
        Refuse(socket);
        Hooks.Run(this, HookKind.Other, (remote, refusal.Value), static (server, a) => server.OnRefused(a.remote, a.Value), static (server, exception) => server.ReportHandlerException(exception));
        admitted = null;
        return false;
    }

    private RefusalReason? CountLocked(Socket socket, IPAddress? address)
    {
        var reserve = OptionDescriptorReserve;
        var limit = Descriptors.Limit;
        // The lowest free descriptor was handed out: descriptor N means N + 1 are open.
        if (reserve > 0 && limit > 0 && Descriptors.Number(socket) >= limit - reserve)
            return RefusalReason.DescriptorReserve;
        var max = OptionMaxSessions;
        var perAddress = OptionMaxSessionsPerAddress;
        lock (_admissionLock)
        {
            if (max > 0 && _admitted >= max)
                return RefusalReason.ServerFull;
            var count = 0;
            if (address != null && perAddress > 0 && _perAddress.TryGetValue(address, out count) && count >= perAddress)
                return RefusalReason.AddressFull;
            _admitted++;
            if (address != null)
                _perAddress[address] = count + 1;
        }
        return null;
    }

    /// <summary>
    /// The address a peer is counted under: IPv4-mapped IPv6 addresses count as their IPv4 address; null for an endpoint
    /// without one (Unix sockets) or a peer gone before it was admitted. The same endpoint always gives an equal address.
    /// </summary>
    private static IPAddress? AdmissionAddress(EndPoint? remote)
        => remote is IPEndPoint ip ? (ip.Address.IsIPv4MappedToIPv6 ? ip.Address.MapToIPv4() : ip.Address) : null;

    /// <summary>Gives back what <see cref="Admit"/> counted (the session left, or never started).</summary>
    /// <param name="admitted">The endpoint <see cref="Admit"/> returned (kept by the session's transport meanwhile).</param>
    private void ReleaseAdmission(EndPoint? admitted)
    {
        var address = AdmissionAddress(admitted);
        lock (_admissionLock)
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

    private static void Refuse(Socket socket)
    {
        try
        {
            // A reset, not a FIN: the server keeps no FIN_WAIT/TIME_WAIT state for connections it never served.
            socket.LingerState = new LingerOption(true, 0);
        }
        catch (SocketException)
        {
            // The peer already left; closing is all that is left to do.
        }
        socket.Dispose();
    }
}
