using System;
using System.Collections.Generic;
using System.Security.Cryptography;
using System.Text;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>What both sides of the opening handshake (RFC 6455 §4) share: the accept key, nonces, and reading header fields.</summary>
internal static class WsHandshake
{
    /// <summary>The GUID appended to the key before hashing (§1.3).</summary>
    public const string KeyGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    /// <summary>A client's nonce is 16 random bytes, sent base64-encoded as the key (§4.1).</summary>
    public const int NonceSize = 16;

    /// <summary>The only protocol version there is.</summary>
    public const string Version = "13";

    /// <summary>Sec-WebSocket-Accept for a key: base64(SHA-1(key + GUID)), the key exactly as sent (§4.2.2).</summary>
    public static string ComputeAccept(string key)
    {
        Span<byte> text = stackalloc byte[256];
        var length = Encoding.ASCII.GetByteCount(key) + KeyGuid.Length;
        var bytes = length <= text.Length ? text[..length] : new byte[length];
        var written = Encoding.ASCII.GetBytes(key, bytes);
        Encoding.ASCII.GetBytes(KeyGuid, bytes[written..]);
        Span<byte> hash = stackalloc byte[SHA1.HashSizeInBytes];
        SHA1.HashData(bytes, hash);
        return Convert.ToBase64String(hash);
    }

    /// <summary>16 bytes from the cryptographic generator: a fresh nonce per connection (§4.1 asks for randomly selected).</summary>
    public static byte[] NewNonce() => RandomNumberGenerator.GetBytes(NonceSize);

    /// <summary>The Sec-WebSocket-Key value for a nonce.</summary>
    public static string KeyOf(ReadOnlySpan<byte> nonce) => Convert.ToBase64String(nonce);

    /// <summary>The tokens of a comma-separated list (subprotocols); null when an element is not a token.</summary>
    internal static List<string>? ParseTokenList(string? value)
    {
        var tokens = new List<string>();
        if (value == null)
            return tokens;
        foreach (var part in value.Split(','))
        {
            var token = part.Trim(' ', '\t');
            if (token.Length == 0)
                continue;
            if (!HttpSyntax.IsToken(Encoding.Latin1.GetBytes(token)))
                return null;
            tokens.Add(token);
        }
        return tokens;
    }

    /// <summary>Ends a head without a body and without Content-Length (RFC 9110 §8.6: none in a 101; a GET needs none).</summary>
    internal static void EndHead(HttpMessageStore store)
    {
        store.Write("\r\n"u8);
        store.BeginBody();
        store.BodyLength = 0;
    }
}
