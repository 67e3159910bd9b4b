using System;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>What a <see cref="WsMulticaster"/> needs from its server (<see cref="WsServer"/>, <see cref="WssServer"/>).</summary>
internal interface IWsServerHost
{
    bool IsStarted { get; }

    /// <summary>The server's sessions now (a snapshot array; not to be changed).</summary>
    StreamSession[] Sessions { get; }

    /// <summary>The server's (virtual) Multicast of raw bytes.</summary>
    bool Multicast(ReadOnlySpan<byte> buffer);
}
