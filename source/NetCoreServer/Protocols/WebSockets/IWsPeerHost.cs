using NetCoreServer.Engine;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// What a <see cref="WsPeer{THost}"/> needs from the public class it serves (WsSession, WssSession, WsClient,
/// WssClient): the hooks (<see cref="IWebSocket"/>), the framer's host, and the connection's engine and protocol slot.
/// Public members implement it implicitly; the rest are one-line explicit forwards in each class.
/// </summary>
internal interface IWsPeerHost : IWebSocket, IWsConnectionHost
{
    StreamSessionEngine? Engine { get; }

    /// <summary>The connection's protocol slot: HTTP before the upgrade, the framer after it.</summary>
    IStreamProtocol? Protocol { get; set; }

    bool IsConnected { get; }

    /// <summary>Starts a graceful disconnect; false when not connected.</summary>
    bool DisconnectEngine(DisconnectReason reason);
}
