using System;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// The client connection preface (RFC 9113 §3.4): 24 fixed bytes, then a SETTINGS frame. Also what tells an h2c
/// prior-knowledge client from an HTTP/1.1 one on a connection's first bytes: no HTTP/1.1 method starts with "PRI ".
/// </summary>
internal static class Http2Preface
{
    /// <summary>"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".</summary>
    public static ReadOnlySpan<byte> Client => "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"u8;

    /// <summary>Whether <paramref name="data"/> starts with the preface: true, false, or null when it is a prefix of it so far.</summary>
    public static bool? Matches(ReadOnlySpan<byte> data)
    {
        var length = Math.Min(data.Length, Client.Length);
        if (!data[..length].SequenceEqual(Client[..length]))
            return false;
        return length == Client.Length ? true : null;
    }
}
