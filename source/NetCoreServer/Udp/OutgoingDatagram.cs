using System.Net;

namespace NetCoreServer.Udp;

/// <summary>A datagram accepted by SendAsync: its target and a pooled copy of its bytes.</summary>
internal readonly struct OutgoingDatagram
{
    public OutgoingDatagram(EndPoint target, byte[] buffer, int length)
    {
        Target = target;
        Buffer = buffer;
        Length = length;
    }

    public EndPoint Target { get; }

    /// <summary>Rented from the shared array pool; returned once the datagram has been sent or dropped.</summary>
    public byte[] Buffer { get; }

    public int Length { get; }
}
