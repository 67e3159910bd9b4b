using System;
using System.Threading;

namespace NetCoreServer.Udp;

/// <summary>
/// The limits a running engine reads. The server or client owns one and its Option properties write through, so
/// a change applies at once (a new send limit to the next SendAsync, continuous receive to the next datagram).
/// </summary>
internal sealed class DatagramOptions
{
    /// <summary>Enough for any UDP datagram (the IPv4 payload limit is 65,507 bytes, the IPv6 one 65,527).</summary>
    public const int MaxDatagramSize = 65536;

    /// <summary>Bounded by default: a sender faster than the network costs at most this much memory.</summary>
    public const long DefaultSendBufferLimit = 4L * 1024 * 1024;

    private int _receiveBufferLimit;
    private long _sendBufferLimit = DefaultSendBufferLimit;
    private volatile bool _continuousReceive;

    /// <summary>0 selects <see cref="MaxDatagramSize"/>.</summary>
    public int ReceiveBufferLimit
    {
        get => Volatile.Read(ref _receiveBufferLimit);
        set => Volatile.Write(ref _receiveBufferLimit, value);
    }

    /// <summary>0 means unlimited.</summary>
    public long SendBufferLimit
    {
        get => Volatile.Read(ref _sendBufferLimit);
        set => Volatile.Write(ref _sendBufferLimit, value);
    }

    public bool ContinuousReceive
    {
        get => _continuousReceive;
        set => _continuousReceive = value;
    }

    /// <summary>Size of the buffer one datagram is received into: 1 to <see cref="MaxDatagramSize"/> bytes.</summary>
    public int EffectiveReceiveBufferSize
    {
        get
        {
            var limit = ReceiveBufferLimit;
            return limit <= 0 ? MaxDatagramSize : Math.Min(limit, MaxDatagramSize);
        }
    }
}
