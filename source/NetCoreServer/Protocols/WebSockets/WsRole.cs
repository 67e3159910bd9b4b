namespace NetCoreServer.Protocols.WebSockets;

/// <summary>Which end of the connection a codec works for; it decides masking (RFC 6455 §5.1) and which deflate parameters apply.</summary>
internal enum WsRole
{
    /// <summary>Reads masked frames from a client, writes unmasked ones.</summary>
    Server,

    /// <summary>Reads unmasked frames from a server, writes masked ones.</summary>
    Client,
}
