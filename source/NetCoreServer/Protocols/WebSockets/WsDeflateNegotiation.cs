using System;
using System.Collections.Generic;
using System.Text;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// The permessage-deflate handshake (RFC 7692 §5, §7.1). A server takes the client's first valid offer (the client
/// lists them in its order of preference) and declines invalid ones (§7.1: an unknown parameter, a repeated one, a bad
/// value); a client offers only what it can honour and fails a response that breaks the rules.
/// </summary>
internal static class WsDeflateNegotiation
{
    public const string ExtensionName = "permessage-deflate";

    private const string ServerNoContextTakeover = "server_no_context_takeover";
    private const string ClientNoContextTakeover = "client_no_context_takeover";
    private const string ServerMaxWindowBits = "server_max_window_bits";
    private const string ClientMaxWindowBits = "client_max_window_bits";

    /// <summary>Server: the parameters of the first acceptable permessage-deflate offer in <paramref name="offers"/>; false when there is none.</summary>
    public static bool TrySelect(IReadOnlyList<WsExtension> offers, WsDeflateOptions options, out WsDeflateParameters parameters)
    {
        foreach (var offer in offers)
        {
            if (IsDeflate(offer) && TryAcceptOffer(offer, options, out parameters))
                return true;
        }
        parameters = default;
        return false;
    }

    /// <summary>
    /// Server: accepts one offer, or declines it (false). The answer: server_no_context_takeover when offered or
    /// configured; client_no_context_takeover when offered (a hint the client resets anyway) or configured;
    /// server_max_window_bits echoed when offered (below 15 this server then sends uncompressed; it cannot shrink its
    /// window); client_max_window_bits never (the 15-bit decompressor reads any window, so there is nothing to ask).
    /// </summary>
    public static bool TryAcceptOffer(WsExtension offer, WsDeflateOptions options, out WsDeflateParameters parameters)
    {
        parameters = default;
        // Without a value client_max_window_bits only says the client could take a limit (§7.1.2.2).
        if (!TryParse(offer, clientBitsMayBeBare: true, out var parsed, out _))
            return false;
        parameters = new WsDeflateParameters(
            parsed.ServerNoContext || options.ServerNoContextTakeover,
            parsed.ClientNoContext || options.ClientNoContextTakeover,
            parsed.ServerBits,
            0);
        return true;
    }

    /// <summary>Client: the offer to send, from <paramref name="options"/>. No window sizes are offered: this side can neither shrink its window nor needs the server's shrunk.</summary>
    public static string BuildOffer(WsDeflateOptions options)
    {
        var text = new StringBuilder(ExtensionName);
        if (options.ServerNoContextTakeover)
            text.Append("; ").Append(ServerNoContextTakeover);
        if (options.ClientNoContextTakeover)
            text.Append("; ").Append(ClientNoContextTakeover);
        return text.ToString();
    }

    /// <summary>
    /// Client: reads the server's accepted element; false (fail the connection, §7.1) for an unknown or repeated
    /// parameter, a bad value, or client_max_window_bits when no offer had it. A client window limited below 15 bits is
    /// honoured by sending uncompressed.
    /// </summary>
    public static bool TryReadResponse(WsExtension response, bool offeredClientMaxWindowBits, out WsDeflateParameters parameters, out string error)
    {
        parameters = default;
        if (!TryParse(response, clientBitsMayBeBare: false, out var parsed, out var bad) || (parsed.ClientBitsSeen && !offeredClientMaxWindowBits))
        {
            error = $"the server's permessage-deflate parameter '{bad ?? ClientMaxWindowBits}' is unknown, repeated, has a bad value or was not offered";
            return false;
        }
        parameters = new WsDeflateParameters(parsed.ServerNoContext, parsed.ClientNoContext, parsed.ServerBits, parsed.ClientBits);
        error = string.Empty;
        return true;
    }

    /// <summary>The parameters of one permessage-deflate element, each at most once.</summary>
    private readonly record struct Parsed(bool ServerNoContext, bool ClientNoContext, int ServerBits, bool ClientBitsSeen, int ClientBits);

    /// <summary>
    /// Reads an element's parameters, offer and answer alike: false with the offending name for an unknown or repeated
    /// parameter or a bad value. <paramref name="clientBitsMayBeBare"/>: client_max_window_bits may come without a value
    /// (an offer) rather than only with one (an answer).
    /// </summary>
    private static bool TryParse(WsExtension element, bool clientBitsMayBeBare, out Parsed parsed, out string? bad)
    {
        parsed = default;
        bad = null;
        bool serverNoContext = false, clientNoContext = false, serverBitsSeen = false, clientBitsSeen = false;
        int serverBits = 0, clientBits = 0;
        foreach (var (name, value) in element.Parameters)
        {
            switch (name.ToLowerInvariant())
            {
                case ServerNoContextTakeover when value == null && !serverNoContext:
                    serverNoContext = true;
                    break;
                case ClientNoContextTakeover when value == null && !clientNoContext:
                    clientNoContext = true;
                    break;
                case ServerMaxWindowBits when !serverBitsSeen && TryParseWindowBits(value, out serverBits):
                    serverBitsSeen = true;
                    break;
                case ClientMaxWindowBits when !clientBitsSeen && ((clientBitsMayBeBare && value == null) || TryParseWindowBits(value, out clientBits)):
                    clientBitsSeen = true;
                    break;
                default:
                    bad = name;
                    return false;
            }
        }
        parsed = new Parsed(serverNoContext, clientNoContext, serverBits, clientBitsSeen, clientBits);
        return true;
    }

    public static bool IsDeflate(WsExtension extension) => string.Equals(extension.Name, ExtensionName, StringComparison.OrdinalIgnoreCase);

    /// <summary>True when any permessage-deflate offer in <paramref name="offers"/> has client_max_window_bits.</summary>
    public static bool OffersClientMaxWindowBits(IReadOnlyList<WsExtension> offers)
    {
        foreach (var offer in offers)
        {
            if (!IsDeflate(offer))
                continue;
            foreach (var (name, _) in offer.Parameters)
            {
                if (string.Equals(name, ClientMaxWindowBits, StringComparison.OrdinalIgnoreCase))
                    return true;
            }
        }
        return false;
    }

    /// <summary>A window size as §7.1.2 writes it: 8 to 15 in decimal, no sign, no leading zero.</summary>
    private static bool TryParseWindowBits(string? value, out int bits)
    {
        bits = value switch
        {
            "8" => 8,
            "9" => 9,
            "10" => 10,
            "11" => 11,
            "12" => 12,
            "13" => 13,
            "14" => 14,
            "15" => 15,
            _ => 0,
        };
        return bits != 0;
    }
}
