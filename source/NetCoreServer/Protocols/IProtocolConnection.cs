using System;

namespace NetCoreServer.Protocols;

/// <summary>
/// What a protocol component (framing, a message inbox, the received-bytes feed) sees of the connection it sits on.
/// <see cref="StreamConnection"/> implements it; the protocols name no connection class, so the layer of public
/// connection classes can sit above them and hold them.
/// </summary>
internal interface IProtocolConnection
{
    /// <summary>True while data can be sent and received.</summary>
    bool IsConnected { get; }

    /// <summary>The protocol in the connection's slot now (an upgrade replaces it), or null for raw bytes.</summary>
    IStreamProtocol? Protocol { get; }

    /// <summary>A full message inbox holds the receive loop (called inside the protocol's receive call).</summary>
    void HoldForInbox();

    /// <summary>Ends <see cref="HoldForInbox"/> (any thread).</summary>
    void ReleaseForInbox();

    /// <summary>A whole framed message arrived (on the receive loop): OnReceivedMessage.</summary>
    void RaiseMessage(ReadOnlySpan<byte> message);

    /// <summary>The peer broke the framing: OnError(MessageSize), then the connection closes as a protocol error.</summary>
    void RefuseMessage();
}
