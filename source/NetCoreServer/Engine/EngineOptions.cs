using System;
using System.Threading;

namespace NetCoreServer.Engine;

/// <summary>
/// Per-connection limits. The connection's Option properties write through, so a limit changed in <c>OnConnecting</c>
/// (or later) applies to the running engine. Server sessions start with one <see cref="Shared"/> instance per server
/// (10,000 idle sessions then hold no copy each); a session's first Option write gives it its own copy, see
/// <see cref="StreamConnection"/>.
/// </summary>
internal sealed class EngineOptions : ConnectionLimits
{
    /// <summary>Receive chunks never grow past this unless the user asks for more.</summary>
    public const int DefaultReceiveBufferLimit = 1024 * 1024;

    /// <summary>Bounded by default: a peer that stops reading costs at most this much memory per session.</summary>
    public const long DefaultSendBufferLimit = 16L * 1024 * 1024;

    private int _receiveBufferSize = 8192;

    public EngineOptions()
        : base(DefaultSendBufferLimit)
    {
    }

    /// <summary>
    /// The server whose sessions these options are (null for a client's): a session finds its server here rather than in
    /// a field of its own (one less per session), since it starts from its server's shared instance and a
    /// <see cref="Copy"/> keeps it.
    /// </summary>
    public IEngineOwner? Owner { get; init; }

    /// <summary>The clock of a client's timeouts (null: the system clock); a server's sessions have their server's wheel in <see cref="Timers"/>.</summary>
    public TimeProvider? Time { get; set; }

    // A server session's wheel, its server's when the session was made: one clock for the session's whole life.
    private TimerWheel? _timers;

    /// <summary>The wheel that times this connection: its server's, or the clients' wheel of <see cref="Time"/>.</summary>
    public TimerWheel Timers
    {
        get => _timers ?? TimerWheel.For(Time);
        init => _timers = value;
    }

    /// <summary>True for an instance several connections read: it is never written again; a writer takes a <see cref="Copy"/>.</summary>
    public bool Shared { get; private set; }

    /// <summary>Marks this instance shared (after its values are set) and returns it.</summary>
    public EngineOptions Share()
    {
        Shared = true;
        return this;
    }

    /// <summary>A private copy with the same values, for one connection to write.</summary>
    public EngineOptions Copy()
    {
        var copy = (EngineOptions)MemberwiseClone();
        copy.Shared = false;
        return copy;
    }

    /// <summary>The first in-process receive buffer (a stream's receive buffer then grows up to <see cref="ConnectionLimits.ReceiveBufferLimit"/>, default <see cref="DefaultReceiveBufferLimit"/>).</summary>
    public int ReceiveBufferSize
    {
        get => Volatile.Read(ref _receiveBufferSize);
        set => Volatile.Write(ref _receiveBufferSize, value);
    }

    public int SendBufferSize { get; set; } = 8192;

    public TimeSpan DisconnectTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>Default high watermark: well above one receive chunk, well below the send limit.</summary>
    public const long DefaultSendHighWatermark = 1024 * 1024;

    /// <summary>Default low watermark.</summary>
    public const long DefaultSendLowWatermark = 256 * 1024;

    private long _highWatermark = DefaultSendHighWatermark;
    private long _lowWatermark = DefaultSendLowWatermark;

    /// <summary>
    /// True once the user set the connection's send limit (OptionSendBufferLimit): a multicast it refuses is then also
    /// reported through OnError, as NetCoreServer reports only a limit its user set.
    /// </summary>
    public bool SendBufferLimitSet { get; set; }

    /// <summary>Stop reading while unwritable (server sessions by default; not clients, see StreamConnection.OptionStopReadingWhenUnwritable).</summary>
    public bool StopReadingWhenUnwritable { get; set; } = true;

    /// <summary>Pending bytes above which the connection is unwritable (and may stop reading); 0 turns this off.</summary>
    public long SendHighWatermark
    {
        get => Volatile.Read(ref _highWatermark);
        set => Volatile.Write(ref _highWatermark, value);
    }

    /// <summary>Pending bytes at or below which an unwritable connection is writable again.</summary>
    public long SendLowWatermark
    {
        get => Volatile.Read(ref _lowWatermark);
        set => Volatile.Write(ref _lowWatermark, value);
    }

    /// <summary>The high watermark in force: never above the send limit (a queue cannot grow past it anyway).</summary>
    public long EffectiveHighWatermark
    {
        get
        {
            var high = SendHighWatermark;
            var limit = SendBufferLimit;
            return high > 0 && limit > 0 ? Math.Min(high, limit) : high;
        }
    }

    /// <summary>
    /// The low watermark in force: below the high one, or a quarter of it when set at or above it (a small send limit
    /// lowers the high watermark), so there is always a gap to cross.
    /// </summary>
    public long EffectiveLowWatermark
    {
        get
        {
            var high = EffectiveHighWatermark;
            if (high <= 0)
                return 0;
            var low = SendLowWatermark;
            return low < high ? low : high / 4;
        }
    }

    /// <summary>Nothing received for this long disconnects the connection; zero (the default) never does.</summary>
    public TimeSpan IdleTimeout { get; set; }

    /// <summary>The receive buffer the engine starts with (at least 256 bytes).</summary>
    public int EffectiveReceiveBufferSize => Math.Max(ReceiveBufferSize, 256);

    /// <summary>The largest receive buffer the engine grows to.</summary>
    public int EffectiveReceiveBufferLimit
    {
        get
        {
            var limit = ReceiveBufferLimit;
            return Math.Max(limit > 0 ? limit : DefaultReceiveBufferLimit, EffectiveReceiveBufferSize);
        }
    }
}
