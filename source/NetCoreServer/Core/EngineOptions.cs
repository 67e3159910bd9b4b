using System;
using System.Threading;

namespace NetCoreServer.Core;

/// <summary>
/// Per-connection limits. The connection object owns one and its Option properties write through, so a
/// limit changed in <c>OnConnecting</c> (or later) applies to the running engine.
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

    /// <summary>The first in-process receive buffer (a stream's receive buffer then grows up to <see cref="ConnectionLimits.ReceiveBufferLimit"/>, default <see cref="DefaultReceiveBufferLimit"/>).</summary>
    public int ReceiveBufferSize
    {
        get => Volatile.Read(ref _receiveBufferSize);
        set => Volatile.Write(ref _receiveBufferSize, value);
    }

    public int SendBufferSize { get; set; } = 8192;

    public TimeSpan DisconnectTimeout { get; set; } = TimeSpan.FromSeconds(5);

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
