using System;
using System.Collections.Generic;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>What one side brings to the opening handshake beyond RFC 6455's required fields.</summary>
internal sealed class WsHandshakeOptions
{
    /// <summary>Client: the subprotocols offered in Sec-WebSocket-Protocol, most preferred first; empty by default.</summary>
    public IReadOnlyList<string> Subprotocols { get; init; } = [];

    /// <summary>
    /// Server: chooses one of the client's subprotocols (given in the client's order) or null for none. A name the
    /// client did not offer is ignored. Null (the default) chooses none.
    /// </summary>
    public Func<IReadOnlyList<string>, string?>? SelectSubprotocol { get; init; }

    /// <summary>permessage-deflate: offered by a client, accepted by a server, with these settings; null (the default) leaves it off.</summary>
    public WsDeflateOptions? Deflate { get; init; }
}
