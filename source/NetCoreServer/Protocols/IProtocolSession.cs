using System;

namespace NetCoreServer.Protocols;

/// <summary>
/// What a protocol's server-side part (the WebSocket multicast and close-all) sees of one of the server's sessions.
/// <see cref="StreamSession"/> implements it with its public members, so a user's override of <c>Disconnect</c> runs.
/// </summary>
internal interface IProtocolSession
{
    /// <summary>Queues <paramref name="buffer"/> without waiting; false when the session refused it (closed, or its queue full).</summary>
    bool SendAsync(ReadOnlySpan<byte> buffer);

    /// <summary>Starts a graceful disconnect.</summary>
    bool Disconnect();
}
