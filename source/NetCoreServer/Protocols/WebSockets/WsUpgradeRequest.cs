using System.Collections.Generic;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>A client's valid upgrade request, as <see cref="WsServerHandshake.Validate"/> read it.</summary>
internal sealed class WsUpgradeRequest
{
    public WsUpgradeRequest(string key, IReadOnlyList<string> subprotocols, IReadOnlyList<WsExtension> extensions)
    {
        Key = key;
        Subprotocols = subprotocols;
        Extensions = extensions;
    }

    /// <summary>Sec-WebSocket-Key as sent (base64 of 16 bytes).</summary>
    public string Key { get; }

    /// <summary>The subprotocols offered, in the client's order (all Sec-WebSocket-Protocol fields); empty when none.</summary>
    public IReadOnlyList<string> Subprotocols { get; }

    /// <summary>The extensions offered, in the client's order (all Sec-WebSocket-Extensions fields); empty when none.</summary>
    public IReadOnlyList<WsExtension> Extensions { get; }
}
