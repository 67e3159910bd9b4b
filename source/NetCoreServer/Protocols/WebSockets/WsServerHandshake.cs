using System;
using System.Buffers.Text;
using System.Collections.Generic;
using System.Text;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// The server's side of the opening handshake (RFC 6455 §4.2): telling an upgrade request from an ordinary one,
/// checking it, and writing the 101 (with the subprotocol and extensions chosen) or the refusal.
/// </summary>
internal static class WsServerHandshake
{
    /// <summary>
    /// Classifies and checks <paramref name="request"/>. An upgrade must be a GET in HTTP/1.1 with a Host field,
    /// <c>Upgrade</c> listing <c>websocket</c> and <c>Connection</c> listing <c>upgrade</c> (tokens, any case), exactly
    /// one <c>Sec-WebSocket-Version: 13</c> (any other version is 426), exactly one <c>Sec-WebSocket-Key</c> that is
    /// base64 of 16 bytes, and well-formed Sec-WebSocket-Protocol and -Extensions lists when present; otherwise
    /// <paramref name="status"/> is 400 or 426 and <paramref name="error"/> says why.
    /// </summary>
    public static WsUpgradeStatus Validate(HttpRequest request, out WsUpgradeRequest? upgrade, out int status, out string error)
    {
        upgrade = null;
        status = 0;
        error = string.Empty;
        var store = request.Store;
        var versions = store.CountFields("sec-websocket-version"u8);
        var keys = store.CountFields("sec-websocket-key"u8);
        var upgradeWebSocket = store.HasToken("upgrade"u8, "websocket"u8);
        if (!upgradeWebSocket && versions == 0 && keys == 0)
            return WsUpgradeStatus.NotWebSocket;

        if (request.Method != "GET")
            return Invalid(400, "a WebSocket upgrade must be a GET request", out status, out error);
        if (request.Protocol != "HTTP/1.1")
            return Invalid(400, "a WebSocket upgrade must be an HTTP/1.1 request", out status, out error);
        if (store.FindField("host"u8) < 0)
            return Invalid(400, "a WebSocket upgrade must have a Host field", out status, out error);
        if (!upgradeWebSocket)
            return Invalid(400, "the Upgrade field must list websocket", out status, out error);
        if (!store.HasToken("connection"u8, "upgrade"u8))
            return Invalid(400, "the Connection field must list upgrade", out status, out error);
        if (versions != 1)
            return Invalid(400, "the request must have one Sec-WebSocket-Version field", out status, out error);
        var version = HttpSyntax.TrimWhitespace(store.FieldValue(store.FindField("sec-websocket-version"u8)));
        if (!version.SequenceEqual("13"u8))
            return Invalid(426, "only WebSocket version 13 is supported", out status, out error);
        if (keys != 1)
            return Invalid(400, "the request must have one Sec-WebSocket-Key field", out status, out error);
        var keyBytes = HttpSyntax.TrimWhitespace(store.FieldValue(store.FindField("sec-websocket-key"u8)));
        if (!IsNonceKey(keyBytes))
            return Invalid(400, "Sec-WebSocket-Key must be base64 of 16 bytes", out status, out error);
        var subprotocols = WsHandshake.ParseTokenList(store.JoinFields("sec-websocket-protocol"u8));
        if (subprotocols == null)
            return Invalid(400, "Sec-WebSocket-Protocol is not a list of tokens", out status, out error);
        var extensions = WsExtension.ParseList(store.JoinFields("sec-websocket-extensions"u8));
        if (extensions == null)
            return Invalid(400, "Sec-WebSocket-Extensions is malformed", out status, out error);

        upgrade = new WsUpgradeRequest(Encoding.ASCII.GetString(keyBytes), subprotocols, extensions);
        return WsUpgradeStatus.Valid;
    }

    /// <summary>
    /// Writes the 101 answer into <paramref name="response"/> (cleared first): Upgrade, Connection,
    /// Sec-WebSocket-Accept, the subprotocol chosen by <see cref="WsHandshakeOptions.SelectSubprotocol"/> if any, and
    /// permessage-deflate when <see cref="WsHandshakeOptions.Deflate"/> is set and an offer is acceptable. The head is
    /// ended without Content-Length (none is allowed in a 1xx), unless <paramref name="endHead"/> is false: then the
    /// caller may add fields first (a session's connecting hook) and ends it with <see cref="WsHandshake.EndHead"/>.
    /// </summary>
    public static WsHandshakeResult Accept(WsUpgradeRequest upgrade, HttpResponse response, WsHandshakeOptions? options = null, bool endHead = true)
    {
        response.Clear().SetBegin(101)
            .SetHeader("Upgrade", "websocket")
            .SetHeader("Connection", "Upgrade")
            .SetHeader("Sec-WebSocket-Accept", WsHandshake.ComputeAccept(upgrade.Key));

        string? subprotocol = null;
        if (options?.SelectSubprotocol != null && upgrade.Subprotocols.Count > 0)
        {
            var chosen = options.SelectSubprotocol(upgrade.Subprotocols);
            if (chosen != null && Contains(upgrade.Subprotocols, chosen))
            {
                subprotocol = chosen;
                response.SetHeader("Sec-WebSocket-Protocol", chosen);
            }
        }

        WsDeflateParameters? deflate = null;
        if (options?.Deflate != null && WsDeflateNegotiation.TrySelect(upgrade.Extensions, options.Deflate, out var parameters))
        {
            deflate = parameters;
            response.SetHeader("Sec-WebSocket-Extensions", parameters.ToHeaderValue());
        }
        if (endHead)
            WsHandshake.EndHead(response.Store);
        return new WsHandshakeResult(subprotocol, deflate);
    }

    /// <summary>
    /// Writes a refusal into <paramref name="response"/> (cleared first): <paramref name="status"/> with
    /// <paramref name="error"/> as a text body; a 426 also carries <c>Sec-WebSocket-Version: 13</c> (§4.4) and
    /// <c>Upgrade: websocket</c> (RFC 9110 §15.5.22).
    /// </summary>
    public static void Reject(HttpResponse response, int status, string error)
    {
        response.Clear().SetBegin(status);
        if (status == 426)
        {
            response.SetHeader("Upgrade", "websocket")
                .SetHeader("Connection", "Upgrade")
                .SetHeader("Sec-WebSocket-Version", WsHandshake.Version);
        }
        response.SetHeader("Content-Type", "text/plain; charset=UTF-8").SetBody(error);
    }

    /// <summary>Base64 of exactly 16 bytes: 24 characters, ending in <c>==</c>, nothing else (no whitespace inside).</summary>
    private static bool IsNonceKey(ReadOnlySpan<byte> key)
    {
        if (key.Length != 24)
            return false;
        Span<byte> nonce = stackalloc byte[18];
        return Base64.DecodeFromUtf8(key, nonce, out var consumed, out var written) == System.Buffers.OperationStatus.Done
            && consumed == 24
            && written == WsHandshake.NonceSize;
    }

    private static bool Contains(IReadOnlyList<string> list, string value)
    {
        foreach (var item in list)
        {
            if (item == value)
                return true;
        }
        return false;
    }

    private static WsUpgradeStatus Invalid(int code, string reason, out int status, out string error)
    {
        status = code;
        error = reason;
        return WsUpgradeStatus.Invalid;
    }
}
