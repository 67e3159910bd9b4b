using System;
using System.Buffers;
using System.Text;

namespace NetCoreServer.Protocols.Http;

/// <summary>The character classes and small grammars of RFC 9110/9112 the readers share.</summary>
internal static class HttpSyntax
{
    /// <summary>tchar (RFC 9110 §5.6.2): what a method, a field name and a transfer coding are made of.</summary>
    private static readonly SearchValues<byte> s_tokenChars =
        SearchValues.Create("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"u8);

    /// <summary>
    /// Bytes a field value, reason phrase or chunk extension must not hold (RFC 9110 §5.5): controls other than HTAB,
    /// and DEL. CR, LF and NUL among them are what response splitting and smuggling are built from.
    /// </summary>
    private static readonly SearchValues<byte> s_fieldValueInvalid = SearchValues.Create(ControlsAndDel(allowTab: true));

    /// <summary>Bytes a request target must not hold: controls, SP and DEL (bytes over 0x7F are let through as UTF-8).</summary>
    private static readonly SearchValues<byte> s_targetInvalid = SearchValues.Create(ControlsAndDel(allowTab: false, alsoSpace: true));

    private static readonly SearchValues<byte> s_hexDigits = SearchValues.Create("0123456789ABCDEFabcdef"u8);

    /// <summary>reg-name (RFC 3986 §3.2.2): unreserved, pct-encoded and sub-delims.</summary>
    private static readonly SearchValues<byte> s_regNameChars =
        SearchValues.Create("!$%&'()*+,-.0123456789;=ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"u8);

    /// <summary>What an IP-literal holds between its brackets (IPv6, IPvFuture).</summary>
    private static readonly SearchValues<byte> s_ipLiteralChars =
        SearchValues.Create("!$&'()*+,-.0123456789:;=ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~"u8);

    private static readonly SearchValues<byte> s_digits = SearchValues.Create("0123456789"u8);

    /// <summary>
    /// A Host field value (RFC 9110 §7.2): uri-host [":" port], where the host is a reg-name, an IPv4 address or a
    /// bracketed IP-literal. Empty is allowed (a target with no authority).
    /// </summary>
    public static bool IsHost(ReadOnlySpan<byte> value)
    {
        ReadOnlySpan<byte> rest;
        if (!value.IsEmpty && value[0] == (byte)'[')
        {
            var close = value.IndexOf((byte)']');
            if (close < 2 || value[1..close].IndexOfAnyExcept(s_ipLiteralChars) >= 0)
                return false;
            rest = value[(close + 1)..];
        }
        else
        {
            var colon = value.IndexOf((byte)':');
            var host = colon < 0 ? value : value[..colon];
            if (host.IndexOfAnyExcept(s_regNameChars) >= 0)
                return false;
            rest = colon < 0 ? default : value[colon..];
        }
        return rest.IsEmpty || (rest[0] == (byte)':' && rest[1..].IndexOfAnyExcept(s_digits) < 0);
    }

    public static bool IsToken(ReadOnlySpan<byte> value) => !value.IsEmpty && value.IndexOfAnyExcept(s_tokenChars) < 0;

    public static bool IsFieldValue(ReadOnlySpan<byte> value) => value.IndexOfAny(s_fieldValueInvalid) < 0;

    public static bool IsRequestTarget(ReadOnlySpan<byte> value) => !value.IsEmpty && value.IndexOfAny(s_targetInvalid) < 0;

    public static bool IsWhitespace(byte value) => value is (byte)' ' or (byte)'\t';

    /// <summary>Strips optional whitespace (SP, HTAB) from both ends.</summary>
    public static ReadOnlySpan<byte> TrimWhitespace(ReadOnlySpan<byte> value)
    {
        var start = 0;
        while (start < value.Length && IsWhitespace(value[start]))
            start++;
        var end = value.Length;
        while (end > start && IsWhitespace(value[end - 1]))
            end--;
        return value[start..end];
    }

    public static bool EqualsIgnoreCase(ReadOnlySpan<byte> value, ReadOnlySpan<byte> lowerCaseAscii) => Ascii.EqualsIgnoreCase(value, lowerCaseAscii);

    /// <summary>
    /// Parses <c>HTTP/1.0</c> or <c>HTTP/1.1</c> into 10 or 11; any other well-formed <c>HTTP/d.d</c> gives 0 (not
    /// supported: 505), anything else -1 (malformed: 400). The name is case-sensitive (RFC 9112 §2.3).
    /// </summary>
    public static int ParseVersion(ReadOnlySpan<byte> value)
    {
        if (value.Length != 8 || !value.StartsWith("HTTP/"u8) || !char.IsAsciiDigit((char)value[5]) || value[6] != '.' || !char.IsAsciiDigit((char)value[7]))
            return -1;
        if (value[5] != '1')
            return 0;
        return value[7] switch
        {
            (byte)'0' => 10,
            (byte)'1' => 11,
            _ => 0,
        };
    }

    /// <summary>
    /// Parses one Content-Length element: 1*DIGIT. Returns false when it is not digits; a value past
    /// <see cref="long.MaxValue"/> saturates there (it is over any body limit anyway).
    /// </summary>
    public static bool TryParseDecimal(ReadOnlySpan<byte> value, out long result)
    {
        result = 0;
        if (value.IsEmpty)
            return false;
        foreach (var b in value)
        {
            var digit = b - '0';
            if ((uint)digit > 9)
                return false;
            result = result > (long.MaxValue - digit) / 10 ? long.MaxValue : result * 10 + digit;
        }
        return true;
    }

    /// <summary>
    /// Parses the leading hex digits of a chunk-size line (RFC 9112 §7.1). Returns how many bytes they took, 0 when
    /// there are none, or -1 when the size would pass 2^60 (no body limit comes near it; refusing keeps the arithmetic
    /// safe).
    /// </summary>
    public static int ParseChunkSize(ReadOnlySpan<byte> line, out long size)
    {
        size = 0;
        var end = line.IndexOfAnyExcept(s_hexDigits);
        if (end < 0)
            end = line.Length;
        for (var i = 0; i < end; i++)
        {
            if (size >= 1L << 56)
                return -1;
            size = (size << 4) | (uint)HexValue(line[i]);
        }
        return end;
    }

    private static int HexValue(byte b) => b <= '9' ? b - '0' : (b | 0x20) - 'a' + 10;

    /// <summary>
    /// Checks a field line (RFC 9112 §5) without its CRLF: <c>name ":" OWS value OWS</c>, the name a token with no
    /// whitespace before the colon, no line folding, no control characters in the value. Returns null when it is one,
    /// else the reason it is not; <paramref name="valueStart"/> and <paramref name="valueLength"/> locate the trimmed value.
    /// </summary>
    public static string? CheckFieldLine(ReadOnlySpan<byte> line, out int colon, out int valueStart, out int valueLength)
    {
        valueStart = 0;
        valueLength = 0;
        colon = line.IndexOf((byte)':');
        if (line.IsEmpty)
            return "an empty field line";
        if (IsWhitespace(line[0]))
            return "a field line starts with whitespace (obsolete line folding is refused)";
        if (colon <= 0)
            return "a header field has no name or no colon";
        if (!IsToken(line[..colon]))
            return "a header field name is not a token (or has whitespace before the colon)";
        var value = line[(colon + 1)..];
        var start = 0;
        while (start < value.Length && IsWhitespace(value[start]))
            start++;
        var end = value.Length;
        while (end > start && IsWhitespace(value[end - 1]))
            end--;
        if (!IsFieldValue(value[start..end]))
            return "a header field value holds a control character";
        valueStart = colon + 1 + start;
        valueLength = end - start;
        return null;
    }

    /// <summary>The elements of a comma-separated list (RFC 9110 §5.6.1), each trimmed of whitespace; empty ones included.</summary>
    public ref struct ListReader
    {
        private ReadOnlySpan<byte> _rest;
        private bool _done;

        public ListReader(ReadOnlySpan<byte> value)
        {
            _rest = value;
            _done = false;
        }

        public bool Next(out ReadOnlySpan<byte> element)
        {
            if (_done)
            {
                element = default;
                return false;
            }
            var comma = _rest.IndexOf((byte)',');
            if (comma < 0)
            {
                element = TrimWhitespace(_rest);
                _done = true;
            }
            else
            {
                element = TrimWhitespace(_rest[..comma]);
                _rest = _rest[(comma + 1)..];
            }
            return true;
        }
    }

    private static byte[] ControlsAndDel(bool allowTab, bool alsoSpace = false)
    {
        var bytes = new System.Collections.Generic.List<byte>();
        for (var b = 0; b < 0x20; b++)
        {
            if (b != '\t' || !allowTab)
                bytes.Add((byte)b);
        }
        if (alsoSpace)
            bytes.Add((byte)' ');
        bytes.Add(0x7F);
        return bytes.ToArray();
    }
}
