using System;
using System.Collections.Generic;
using System.Text;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// The client's side of the opening handshake (RFC 6455 §4.1): writing the upgrade request, and checking the server's
/// answer against the request that was actually sent (NetCoreServer lets an application write that request itself in
/// <c>OnWsConnecting</c>, so the key, subprotocols and extensions offered are read back from it).
/// </summary>
internal static class WsClientHandshake
{
    /// <summary>
    /// Writes <c>GET path HTTP/1.1</c> into <paramref name="request"/> (cleared first) with Host, Upgrade, Connection,
    /// Sec-WebSocket-Key (from <paramref name="nonce"/>, see <see cref="WsHandshake.NewNonce"/>), Sec-WebSocket-Version,
    /// Origin when given, and the subprotocols and permessage-deflate offer of <paramref name="options"/>; the head is
    /// ended without Content-Length.
    /// </summary>
    public static void BuildRequest(HttpRequest request, string host, string path, ReadOnlySpan<byte> nonce, WsHandshakeOptions? options = null, string? origin = null)
    {
        request.Clear().SetBegin("GET", path)
            .SetHeader("Host", host)
            .SetHeader("Upgrade", "websocket")
            .SetHeader("Connection", "Upgrade")
            .SetHeader("Sec-WebSocket-Key", WsHandshake.KeyOf(nonce))
            .SetHeader("Sec-WebSocket-Version", WsHandshake.Version);
        if (origin != null)
            request.SetHeader("Origin", origin);
        if (options != null && options.Subprotocols.Count > 0)
            request.SetHeader("Sec-WebSocket-Protocol", string.Join(", ", options.Subprotocols));
        if (options?.Deflate != null)
            request.SetHeader("Sec-WebSocket-Extensions", WsDeflateNegotiation.BuildOffer(options.Deflate));
        WsHandshake.EndHead(request.Store);
    }

    /// <summary>
    /// Checks the server's answer to <paramref name="sent"/> (§4.1, the client's steps): status 101, <c>Upgrade:
    /// websocket</c>, Connection listing <c>upgrade</c>, one Sec-WebSocket-Accept matching the key sent, at most one
    /// subprotocol and only one that was offered, and only extensions that were offered and are implemented here
    /// (permessage-deflate, with valid parameters). False with <paramref name="error"/> when the connection must fail.
    /// </summary>
    public static bool Validate(HttpRequest sent, HttpResponse response, out WsHandshakeResult result, out string error)
    {
        result = default;
        var request = sent.Store;
        var store = response.Store;
        var keyField = request.FindField("sec-websocket-key"u8);
        if (keyField < 0)
            return Fail("the request sent has no Sec-WebSocket-Key", out error);
        if (response.Status != 101)
            return Fail($"the server answered {response.Status} instead of 101 Switching Protocols", out error);

        var upgrades = store.CountFields("upgrade"u8);
        var upgrade = upgrades == 1 ? HttpSyntax.TrimWhitespace(store.FieldValue(store.FindField("upgrade"u8))) : default;
        if (upgrades != 1 || !HttpSyntax.EqualsIgnoreCase(upgrade, "websocket"u8))
            return Fail("the response's Upgrade field is not websocket", out error);
        if (!store.HasToken("connection"u8, "upgrade"u8))
            return Fail("the response's Connection field does not list upgrade", out error);

        var key = Encoding.ASCII.GetString(HttpSyntax.TrimWhitespace(request.FieldValue(keyField)));
        var expected = Encoding.ASCII.GetBytes(WsHandshake.ComputeAccept(key));
        if (store.CountFields("sec-websocket-accept"u8) != 1
            || !HttpSyntax.TrimWhitespace(store.FieldValue(store.FindField("sec-websocket-accept"u8))).SequenceEqual(expected))
            return Fail("the response's Sec-WebSocket-Accept does not match the key sent", out error);

        string? subprotocol = null;
        var protocols = store.CountFields("sec-websocket-protocol"u8);
        if (protocols > 1)
            return Fail("the response has more than one Sec-WebSocket-Protocol field", out error);
        if (protocols == 1)
        {
            subprotocol = Encoding.Latin1.GetString(HttpSyntax.TrimWhitespace(store.FieldValue(store.FindField("sec-websocket-protocol"u8))));
            var offered = WsHandshake.ParseTokenList(request.JoinFields("sec-websocket-protocol"u8)) ?? [];
            if (!offered.Contains(subprotocol))
                return Fail("the server chose a subprotocol that was not offered", out error);
        }

        WsDeflateParameters? deflate = null;
        var chosen = WsExtension.ParseList(store.JoinFields("sec-websocket-extensions"u8));
        if (chosen == null)
            return Fail("the response's Sec-WebSocket-Extensions is malformed", out error);
        if (chosen.Count > 0)
        {
            var offers = WsExtension.ParseList(request.JoinFields("sec-websocket-extensions"u8)) ?? [];
            foreach (var extension in chosen)
            {
                if (!WsDeflateNegotiation.IsDeflate(extension))
                    return Fail($"the server chose the extension '{extension.Name}', which is not supported", out error);
                if (deflate != null)
                    return Fail("the server chose permessage-deflate twice", out error);
                if (!Offered(offers))
                    return Fail("the server chose permessage-deflate, which was not offered", out error);
                if (!WsDeflateNegotiation.TryReadResponse(extension, WsDeflateNegotiation.OffersClientMaxWindowBits(offers), out var parameters, out error))
                    return false;
                deflate = parameters;
            }
        }

        result = new WsHandshakeResult(subprotocol, deflate);
        error = string.Empty;
        return true;
    }

    private static bool Offered(List<WsExtension> offers)
    {
        foreach (var offer in offers)
        {
            if (WsDeflateNegotiation.IsDeflate(offer))
                return true;
        }
        return false;
    }

    private static bool Fail(string reason, out string error)
    {
        error = reason;
        return false;
    }
}
