using System;

namespace NetCoreServer.Protocols;

/// <summary>
/// A protocol spoken on a stream connection (HTTP, WebSocket), with no socket in it. The connection holds at most one
/// in its protocol slot; while one is there, received data goes to it instead of <c>OnReceived</c>. An upgrade
/// replaces it on the same connection (HTTP to WebSocket), and bytes after the upgrade go to the new one.
/// </summary>
internal interface IStreamProtocol
{
    /// <summary>
    /// Handed everything received and not consumed yet, on the receive loop (calls never overlap). Returns how many
    /// bytes from the front it consumed; the engine keeps the rest and hands it again with more data, or at once when
    /// this call consumed something (the next pipelined message, or bytes for a protocol installed by this call).
    /// Returning 0 with a full receive buffer at its limit closes the connection with
    /// <see cref="DisconnectReason.ProtocolError"/>, so a protocol should refuse oversized messages itself first.
    /// </summary>
    int Received(ReadOnlySpan<byte> data);

    /// <summary>
    /// Queued bytes were handed to the socket (after each batch, and when the queue empties), before OnSent/OnEmpty,
    /// on the thread that sent them, with no lock held: room to queue more of what waits. Does nothing by default.
    /// </summary>
    void Sent()
    {
    }

    /// <summary>
    /// The server drains (<c>StopAsync</c>): the protocol's own goodbye (WebSocket: a close frame 1001), after which the
    /// connection ends by itself. False (the default) when it has none: the connection is then disconnected gracefully.
    /// </summary>
    bool BeginDrain() => false;
}
