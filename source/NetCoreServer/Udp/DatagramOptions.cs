using System;
using System.Threading;
using NetCoreServer.Engine;

namespace NetCoreServer.Udp;

/// <summary>
/// The limits a running engine reads. The server or client owns one and its Option properties write through, so
/// a change applies at once (a new send limit to the next SendAsync, continuous receive to the next datagram).
/// </summary>
internal sealed class DatagramOptions : ConnectionLimits
{
    /// <summary>Enough for any UDP datagram (the IPv4 payload limit is 65,507 bytes, the IPv6 one 65,527).</summary>
    public const int MaxDatagramSize = 65536;

    /// <summary>Bounded by default: a sender faster than the network costs at most this much memory.</summary>
    public const long DefaultSendBufferLimit = 4L * 1024 * 1024;

    private volatile bool _continuousReceive;

    /// <summary>Serve the socket from a thread of its own with blocking calls (see DatagramPeer.OptionReceiveThread); read when the socket opens.</summary>
    public bool ReceiveThread { get; set; }

    /// <summary>A receive limit of 0 selects <see cref="MaxDatagramSize"/>; the send limit starts at <see cref="DefaultSendBufferLimit"/>.</summary>
    public DatagramOptions()
        : base(DefaultSendBufferLimit)
    {
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
