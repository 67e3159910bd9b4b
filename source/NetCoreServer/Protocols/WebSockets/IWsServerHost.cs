using System;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>What a <see cref="WsMulticaster"/> needs from its server (<see cref="WsServer"/>, <see cref="WssServer"/>).</summary>
internal interface IWsServerHost
{
    bool IsStarted { get; }

    /// <summary>The server's sessions now (a snapshot array; not to be changed).</summary>
    IProtocolSession[] Sessions { get; }

    /// <summary>Where a text or binary multicast goes beyond this server; null for nowhere.</summary>
    IMulticastRelay? MulticastRelay { get; }

    /// <summary>
    /// Queues whole frames on the upgraded sessions <paramref name="filter"/> admits (all for null); never relayed. The
    /// filter is the one the server handed to <see cref="WsMulticaster"/> (its <c>Func&lt;StreamSession, bool&gt;</c>).
    /// </summary>
    bool PublishFrames(ReadOnlySpan<byte> frames, Delegate? filter);
}
