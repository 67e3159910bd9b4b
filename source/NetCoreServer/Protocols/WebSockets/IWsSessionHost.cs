namespace NetCoreServer.Protocols.WebSockets;

/// <summary>What a <see cref="WsServerPeer"/> needs from its session (<see cref="WsSession"/>, <see cref="WssSession"/>) beyond <see cref="IWsPeerHost"/>.</summary>
internal interface IWsSessionHost : IWsPeerHost
{
    /// <summary>The session's response, which carries the answer to the upgrade request.</summary>
    HttpResponse Response { get; }

    /// <summary>The server's WebSocket settings (read at the upgrade).</summary>
    WsOptions Options { get; }

    /// <summary>The session's own (virtual) Disconnect, used after refusing an upgrade.</summary>
    bool Disconnect();
}
