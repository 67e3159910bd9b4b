using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer.Udp;

/// <summary>
/// The endpoints a receive thread hands to OnReceived, one per sender address, so that steady traffic from known
/// peers allocates nothing (the runtime's own receive reuses only the last sender's endpoint). Bounded: past
/// <see cref="Capacity"/> senders it starts again empty. Not thread-safe: the receive thread alone uses it.
/// </summary>
internal sealed class SenderEndpoints
{
    /// <summary>Most senders remembered.</summary>
    public const int Capacity = 4096;

    private readonly Dictionary<SocketAddress, EndpointStamp> _known = new();
    private readonly EndPoint _template;

    /// <summary>Endpoints of the family of <paramref name="template"/>.</summary>
    public SenderEndpoints(EndPoint template) => _template = template;

    /// <summary>The endpoint for the address a receive just filled in (which is read, not kept).</summary>
    public EndPoint EndpointOf(SocketAddress received)
    {
        if (_known.TryGetValue(received, out var stamp) && stamp.IsUnchanged)
            return stamp.Endpoint;
        if (_known.Count >= Capacity)
            _known.Clear();
        var key = new SocketAddress(received.Family, received.Size);
        received.Buffer.Span[..received.Size].CopyTo(key.Buffer.Span);
        var endpoint = _template.Create(key);
        _known[key] = new EndpointStamp(endpoint);
        return endpoint;
    }
}

/// <summary>
/// The serialized addresses a send loop sends to, one per target endpoint object (usually one a receive handed out),
/// so that answering known peers allocates nothing (the runtime serializes the endpoint on every send). Bounded as
/// <see cref="SenderEndpoints"/>. Not thread-safe: the send loop alone uses it (it runs on one thread at a time).
/// </summary>
internal sealed class TargetAddresses
{
    private readonly Dictionary<EndPoint, (EndpointStamp Stamp, SocketAddress Address)> _known = new(ReferenceEqualityComparer.Instance);
    private readonly AddressFamily _family;

    /// <summary>Addresses for a socket of <paramref name="family"/>.</summary>
    public TargetAddresses(AddressFamily family) => _family = family;

    /// <summary>
    /// The address to send to <paramref name="target"/>, or null when the runtime must work it out itself: not an
    /// <see cref="IPEndPoint"/>, or another family than the socket's (a dual-mode socket maps IPv4 addresses).
    /// </summary>
    public SocketAddress? AddressOf(EndPoint target)
    {
        if (target is not IPEndPoint ip || ip.AddressFamily != _family)
            return null;
        if (_known.TryGetValue(target, out var known) && known.Stamp.IsUnchanged)
            return known.Address;
        if (_known.Count >= SenderEndpoints.Capacity)
            _known.Clear();
        var address = ip.Serialize();
        _known[target] = (new EndpointStamp(ip), address);
        return address;
    }
}

/// <summary>
/// An endpoint as it was when cached. IPEndPoint is mutable and the user may change one handed out; a changed one
/// (its Address or Port replaced) no longer matches and is made or serialized again.
/// </summary>
internal readonly struct EndpointStamp
{
    private readonly IPAddress? _address;
    private readonly int _port;

    public EndpointStamp(EndPoint endpoint)
    {
        Endpoint = endpoint;
        if (endpoint is IPEndPoint ip)
        {
            _address = ip.Address;
            _port = ip.Port;
        }
    }

    public EndPoint Endpoint { get; }

    public bool IsUnchanged => Endpoint is not IPEndPoint ip || (ReferenceEquals(ip.Address, _address) && ip.Port == _port);
}
