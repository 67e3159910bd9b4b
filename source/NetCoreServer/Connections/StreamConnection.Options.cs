using System;
using NetCoreServer.Engine;

namespace NetCoreServer;

public abstract partial class StreamConnection
{
    /// <summary>
    /// Largest receive buffer in bytes. The buffer starts at <see cref="OptionReceiveBufferSize"/>, doubles while
    /// the peer keeps filling it and shrinks back after the burst; data is delivered in chunks no larger than this,
    /// so a flooding peer cannot grow memory past it. 0 (the default) means 1 MiB.
    /// </summary>
    public int OptionReceiveBufferLimit
    {
        get => Limits.ReceiveBufferLimit;
        set => WritableLimits.ReceiveBufferLimit = value;
    }

    /// <summary>
    /// First size of the pooled, in-process receive buffer in bytes (default 8192); it grows up to
    /// <see cref="OptionReceiveBufferLimit"/> during bursts. An idle connection holds no receive buffer at all. Unlike
    /// UDP's <c>OptionReceiveBufferSize</c>, this is not the kernel's socket buffer (SO_RCVBUF), which keeps the system value.
    /// </summary>
    public int OptionReceiveBufferSize
    {
        get => Limits.ReceiveBufferSize;
        set => WritableLimits.ReceiveBufferSize = value;
    }

    /// <summary>
    /// Most bytes that may wait to be sent (queued plus in flight). A <c>SendAsync</c> that would pass it returns
    /// false and raises <see cref="OnError"/> with <c>NoBufferSpaceAvailable</c>; nothing is queued and the connection
    /// stays open. Protects the process from a peer that stops reading. Default 16 MiB; 0 means unlimited. A server's
    /// multicast that would pass it is reported through <c>OnSlowConsumer</c>, and through <see cref="OnError"/> too
    /// once this was set (as NetCoreServer, whose limit is off unless set).
    /// </summary>
    public int OptionSendBufferLimit
    {
        get => (int)Math.Min(Limits.SendBufferLimit, int.MaxValue);
        set
        {
            var limits = WritableLimits;
            limits.SendBufferLimit = value;
            limits.SendBufferLimitSet = true;
        }
    }

    /// <summary>
    /// When the bytes waiting to be sent pass this many, the connection becomes unwritable
    /// (<see cref="OnWritabilityChanged"/>(false)). Default 1 MiB (never above <see cref="OptionSendBufferLimit"/>); 0 turns it off.
    /// </summary>
    /// <remarks>
    /// With <see cref="OptionStopReadingWhenUnwritable"/> (server sessions by default) an unwritable connection stops
    /// reading from its peer until the bytes fall to <see cref="OptionSendLowWatermark"/>. At 0 there is no writability
    /// tracking and no backpressure: reading never stops, as in NetCoreServer.
    /// </remarks>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative.</exception>
    public long OptionSendHighWatermark
    {
        get => Limits.SendHighWatermark;
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value);
            WritableLimits.SendHighWatermark = value;
        }
    }

    /// <summary>
    /// An unwritable connection becomes writable again, and reads again, once the bytes waiting to be sent are at or below
    /// this many (default 256 KiB; when not below the high watermark in force, a quarter of it). The gap between the two
    /// keeps a connection near the mark from switching on every send.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative.</exception>
    public long OptionSendLowWatermark
    {
        get => Limits.SendLowWatermark;
        set
        {
            ArgumentOutOfRangeException.ThrowIfNegative(value);
            WritableLimits.SendLowWatermark = value;
        }
    }

    /// <summary>
    /// Backpressure: stop reading from the peer while the connection is unwritable (see <see cref="OptionSendHighWatermark"/>),
    /// so a peer that sends fast and never reads is slowed by TCP's flow control instead of filling the send limit.
    /// Default true for server sessions, false for clients (two echoing ends that both stop reading could never drain).
    /// </summary>
    public bool OptionStopReadingWhenUnwritable
    {
        get => Limits.StopReadingWhenUnwritable;
        set => WritableLimits.StopReadingWhenUnwritable = value;
    }

    /// <summary>False while the connection is unwritable (see <see cref="OptionSendHighWatermark"/>); true otherwise.</summary>
    public bool IsWritable => Engine?.IsWritable ?? true;

    /// <summary>Size in bytes of the pooled chunks small sends are coalesced into (default 8192, at least 4096).</summary>
    public int OptionSendBufferSize
    {
        get => Limits.SendBufferSize;
        set => WritableLimits.SendBufferSize = value;
    }

    /// <summary>
    /// How long a graceful disconnect may take: delivering already accepted data and waiting for the peer's end
    /// of stream. When it passes, the socket is closed anyway, so a peer that stops reading cannot hold a connection
    /// (or a server's Stop) open. Default 5 seconds; <see cref="TimeSpan.Zero"/> closes at once without delivering what
    /// is queued. A disconnect is always bounded: negative values (including an infinite timeout) are refused.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative.</exception>
    public TimeSpan OptionDisconnectTimeout
    {
        get => Limits.DisconnectTimeout;
        set
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, TimeSpan.Zero);
            WritableLimits.DisconnectTimeout = value;
        }
    }

    /// <summary>
    /// How long the connection may receive nothing before it is disconnected with <see cref="NetCoreServer.DisconnectReason.Timeout"/>
    /// (slowloris, dead peers). Only received bytes count; a connection that stopped reading for backpressure is not idle.
    /// Default <see cref="TimeSpan.Zero"/>: none, as in NetCoreServer. Set it in <see cref="OnConnecting"/> at the latest;
    /// checked four times a second, so choose seconds (sessions take <see cref="StreamServer.OptionIdleTimeout"/>).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The value is negative.</exception>
    public TimeSpan OptionIdleTimeout
    {
        get => Limits.IdleTimeout;
        set
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, TimeSpan.Zero);
            WritableLimits.IdleTimeout = value;
        }
    }

    /// <summary>Bytes accepted by <c>SendAsync</c> and not yet handed to the socket.</summary>
    public long BytesPending => Engine?.BytesPending ?? 0;

    /// <summary>Bytes handed to the socket in the send under way.</summary>
    public long BytesSending => Engine?.BytesSending ?? 0;

    /// <summary>Bytes sent on the current (or last) connection.</summary>
    public long BytesSent => Engine?.BytesSent ?? 0;

    /// <summary>Bytes received on the current (or last) connection.</summary>
    public long BytesReceived => Engine?.BytesReceived ?? 0;
}
