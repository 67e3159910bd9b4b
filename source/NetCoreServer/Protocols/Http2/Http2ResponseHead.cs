using System;
using System.Buffers;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// Maps an HTTP/1.1 response head (what <see cref="HttpResponse"/> and the prepared static responses hold: a status
/// line, then <c>Name: value</c> lines) to an HPACK field block: <c>:status</c> first, names lowercased, and the
/// connection-specific fields dropped (RFC 9113 §8.2.2: Connection, Keep-Alive, Proxy-Connection, Transfer-Encoding,
/// Upgrade, and TE). Content-Length is kept and read, since the body sent must match it (§8.1.1).
/// </summary>
internal static class Http2ResponseHead
{
    /// <summary>Reads the status of a head: the three digits after "HTTP/1.x "; 0 when there are none.</summary>
    public static int StatusOf(ReadOnlySpan<byte> head)
    {
        var space = head.IndexOf((byte)' ');
        if (space < 0 || head.Length < space + 4)
            return 0;
        var digits = head.Slice(space + 1, 3);
        var status = 0;
        foreach (var digit in digits)
        {
            if (digit is < (byte)'0' or > (byte)'9')
                return 0;
            status = status * 10 + digit - '0';
        }
        return status;
    }

    /// <summary>
    /// Encodes <paramref name="head"/> into <paramref name="block"/> with <paramref name="encoder"/>; returns the status
    /// (0 when the head has no valid status line: nothing is written then) and the Content-Length declared, or -1.
    /// </summary>
    public static int Encode(ReadOnlySpan<byte> head, HpackEncoder encoder, IBufferWriter<byte> block, out long contentLength)
    {
        contentLength = -1;
        var status = StatusOf(head);
        if (status < 100)
            return 0;
        encoder.BeginBlock(block);
        Span<byte> digits = stackalloc byte[3];
        digits[0] = (byte)('0' + status / 100);
        digits[1] = (byte)('0' + status / 10 % 10);
        digits[2] = (byte)('0' + status % 10);
        encoder.Encode(":status"u8, digits, block);
        var lineEnd = head.IndexOf("\r\n"u8);
        var rest = lineEnd < 0 ? default : head[(lineEnd + 2)..];
        Span<byte> small = stackalloc byte[64];
        while (!rest.IsEmpty)
        {
            lineEnd = rest.IndexOf("\r\n"u8);
            var line = lineEnd < 0 ? rest : rest[..lineEnd];
            rest = lineEnd < 0 ? default : rest[(lineEnd + 2)..];
            var colon = line.IndexOf((byte)':');
            if (colon <= 0)
                continue;
            var name = line[..colon];
            var value = HttpSyntax.TrimWhitespace(line[(colon + 1)..]);
            if (IsConnectionSpecific(name))
                continue;
            if (HttpSyntax.EqualsIgnoreCase(name, "content-length"u8) && !HttpSyntax.TryParseDecimal(value, out contentLength))
                contentLength = -1;
            var rented = name.Length > small.Length ? ArrayPool<byte>.Shared.Rent(name.Length) : null;
            var lower = (rented ?? small)[..name.Length];
            for (var i = 0; i < name.Length; i++)
                lower[i] = name[i] is >= (byte)'A' and <= (byte)'Z' ? (byte)(name[i] | 0x20) : name[i];
            encoder.Encode(lower, value, block);
            if (rented != null)
                ArrayPool<byte>.Shared.Return(rented);
        }
        return status;
    }

    private static bool IsConnectionSpecific(ReadOnlySpan<byte> name)
        => name.Length switch
        {
            2 => HttpSyntax.EqualsIgnoreCase(name, "te"u8),
            7 => HttpSyntax.EqualsIgnoreCase(name, "upgrade"u8),
            10 => HttpSyntax.EqualsIgnoreCase(name, "connection"u8) || HttpSyntax.EqualsIgnoreCase(name, "keep-alive"u8),
            16 => HttpSyntax.EqualsIgnoreCase(name, "proxy-connection"u8),
            17 => HttpSyntax.EqualsIgnoreCase(name, "transfer-encoding"u8),
            _ => false,
        };
}
