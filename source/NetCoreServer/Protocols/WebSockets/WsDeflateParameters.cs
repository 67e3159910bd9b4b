using System.IO.Compression;
using System.Text;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// The permessage-deflate parameters a handshake settled on (RFC 7692 §7.1). A window size of 0 means the parameter
/// was not given (the default, 15 bits). .NET's compressor always uses a 15-bit window, so a side whose window was
/// limited below that sends every message uncompressed, which §6 permits and which honours any limit; incoming data
/// is always decompressed with a 15-bit window, which reads any window size.
/// </summary>
internal readonly record struct WsDeflateParameters(
    bool ServerNoContextTakeover,
    bool ClientNoContextTakeover,
    int ServerMaxWindowBits,
    int ClientMaxWindowBits)
{
    /// <summary>True when <paramref name="role"/> may compress what it sends: its window is not limited below 15 bits.</summary>
    public bool CompressesOutgoing(WsRole role)
    {
        var bits = role == WsRole.Server ? ServerMaxWindowBits : ClientMaxWindowBits;
        return bits is 0 or 15;
    }

    /// <summary>The compressor for what <paramref name="role"/> sends, or null when it must send uncompressed (see <see cref="CompressesOutgoing"/>).</summary>
    public WsDeflater? CreateDeflater(WsRole role, CompressionLevel level = CompressionLevel.Optimal)
        => CompressesOutgoing(role)
            ? new WsDeflater(role == WsRole.Server ? ServerNoContextTakeover : ClientNoContextTakeover, level)
            : null;

    /// <summary>The decompressor for what <paramref name="role"/> receives (released between messages when the peer resets its context).</summary>
    public WsInflater CreateInflater(WsRole role)
        => new(role == WsRole.Server ? ClientNoContextTakeover : ServerNoContextTakeover);

    /// <summary>The Sec-WebSocket-Extensions element that states these parameters (a server's response).</summary>
    public string ToHeaderValue()
    {
        var text = new StringBuilder(WsDeflateNegotiation.ExtensionName);
        if (ServerNoContextTakeover)
            text.Append("; server_no_context_takeover");
        if (ClientNoContextTakeover)
            text.Append("; client_no_context_takeover");
        if (ServerMaxWindowBits != 0)
            text.Append("; server_max_window_bits=").Append(ServerMaxWindowBits);
        if (ClientMaxWindowBits != 0)
            text.Append("; client_max_window_bits=").Append(ClientMaxWindowBits);
        return text.ToString();
    }
}
