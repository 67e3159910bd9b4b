using System;

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
        set => Limits.ReceiveBufferLimit = value;
    }

    /// <summary>
    /// First size of the pooled, in-process receive buffer in bytes (default 8192); it grows up to
    /// <see cref="OptionReceiveBufferLimit"/> during bursts. An idle connection holds no receive buffer at all. Unlike
    /// UDP's <c>OptionReceiveBufferSize</c>, this is not the kernel's socket buffer (SO_RCVBUF), which keeps the system value.
    /// </summary>
    public int OptionReceiveBufferSize
    {
        get => Limits.ReceiveBufferSize;
        set => Limits.ReceiveBufferSize = value;
    }

    /// <summary>
    /// Most bytes that may wait to be sent (queued plus in flight). A <c>SendAsync</c> that would pass it returns
    /// false and raises <see cref="OnError"/> with <c>NoBufferSpaceAvailable</c>; nothing is queued and the connection
    /// stays open. Protects the process from a peer that stops reading. Default 16 MiB; 0 means unlimited.
    /// </summary>
    public int OptionSendBufferLimit
    {
        get => (int)Math.Min(Limits.SendBufferLimit, int.MaxValue);
        set => Limits.SendBufferLimit = value;
    }

    /// <summary>Size in bytes of the pooled chunks small sends are coalesced into (default 8192, at least 4096).</summary>
    public int OptionSendBufferSize
    {
        get => Limits.SendBufferSize;
        set => Limits.SendBufferSize = value;
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
            Limits.DisconnectTimeout = value;
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
