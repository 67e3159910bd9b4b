using System;
using System.Net.Sockets;

namespace NetCoreServer.Core;

/// <summary>
/// What the engine calls back into: a server session or a client. Each call reaches user hooks, so the
/// engine never makes one while holding a lock.
/// </summary>
internal interface IStreamSessionHost
{
    /// <summary>Data arrived. The buffer is pooled and valid only during the call.</summary>
    void EngineReceived(byte[] buffer, int offset, int size);

    /// <summary>A batch was handed to the transport.</summary>
    void EngineSent(long sent, long pending);

    /// <summary>The send queue became empty.</summary>
    void EngineEmpty();

    /// <summary>A socket error that is worth reporting (not an ordinary reset or abort).</summary>
    void EngineError(SocketError error);

    /// <summary>A user hook threw; the connection is being torn down.</summary>
    void EngineHandlerException(Exception exception);

    /// <summary>Teardown started; runs once, before the socket closes.</summary>
    void EngineDisconnecting();

    /// <summary>Socket closed and both loops stopped; runs once, last.</summary>
    void EngineDisconnected();

    /// <summary>Byte counters for server-wide statistics.</summary>
    void EngineCounted(long received, long sent);
}
