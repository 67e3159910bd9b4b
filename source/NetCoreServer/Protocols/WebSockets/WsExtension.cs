using System;
using System.Collections.Generic;
using System.Text;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// One element of a Sec-WebSocket-Extensions list (RFC 6455 §9.1): a name and its parameters, each a name with an
/// optional value (a quoted value is unquoted; it must still be a token).
/// </summary>
internal sealed class WsExtension
{
    public WsExtension(string name, IReadOnlyList<KeyValuePair<string, string?>> parameters)
    {
        Name = name;
        Parameters = parameters;
    }

    public string Name { get; }

    public IReadOnlyList<KeyValuePair<string, string?>> Parameters { get; }

    /// <summary>The extension as it is written in a header: <c>name; param; param=value</c>.</summary>
    public override string ToString()
    {
        var text = new StringBuilder(Name);
        foreach (var (name, value) in Parameters)
        {
            text.Append("; ").Append(name);
            if (value != null)
                text.Append('=').Append(value);
        }
        return text.ToString();
    }

    /// <summary>
    /// Parses an extension list (null or empty gives an empty list); null when it does not follow the grammar:
    /// <c>extension *( "," extension )</c>, <c>extension = token *( ";" token [ "=" ( token / quoted-string ) ] )</c>,
    /// optional whitespace around the separators, empty list elements ignored (RFC 9110 §5.6.1).
    /// </summary>
    public static List<WsExtension>? ParseList(string? value)
    {
        var list = new List<WsExtension>();
        if (value == null)
            return list;
        var pos = 0;
        while (true)
        {
            SkipWhitespace(value, ref pos);
            if (pos == value.Length)
                return list;
            if (value[pos] == ',')
            {
                pos++;
                continue;
            }
            var name = ReadToken(value, ref pos);
            if (name.Length == 0)
                return null;
            var parameters = new List<KeyValuePair<string, string?>>();
            SkipWhitespace(value, ref pos);
            while (pos < value.Length && value[pos] == ';')
            {
                pos++;
                SkipWhitespace(value, ref pos);
                var parameter = ReadToken(value, ref pos);
                if (parameter.Length == 0)
                    return null;
                SkipWhitespace(value, ref pos);
                string? parameterValue = null;
                if (pos < value.Length && value[pos] == '=')
                {
                    pos++;
                    SkipWhitespace(value, ref pos);
                    parameterValue = pos < value.Length && value[pos] == '"' ? ReadQuoted(value, ref pos) : ReadToken(value, ref pos);
                    if (string.IsNullOrEmpty(parameterValue) || !IsToken(parameterValue))
                        return null;
                    SkipWhitespace(value, ref pos);
                }
                parameters.Add(new KeyValuePair<string, string?>(parameter, parameterValue));
            }
            if (pos < value.Length && value[pos] != ',')
                return null;
            list.Add(new WsExtension(name, parameters));
        }
    }

    private static void SkipWhitespace(string value, ref int pos)
    {
        while (pos < value.Length && value[pos] is ' ' or '\t')
            pos++;
    }

    private static string ReadToken(string value, ref int pos)
    {
        var start = pos;
        while (pos < value.Length && IsTokenChar(value[pos]))
            pos++;
        return value[start..pos];
    }

    /// <summary>A quoted-string (RFC 9110 §5.6.4) unquoted; null when it is not closed.</summary>
    private static string? ReadQuoted(string value, ref int pos)
    {
        var text = new StringBuilder();
        pos++;
        while (pos < value.Length)
        {
            var c = value[pos++];
            if (c == '"')
                return text.ToString();
            if (c == '\\')
            {
                if (pos == value.Length)
                    return null;
                c = value[pos++];
            }
            text.Append(c);
        }
        return null;
    }

    private static bool IsToken(string value)
    {
        foreach (var c in value)
        {
            if (!IsTokenChar(c))
                return false;
        }
        return value.Length > 0;
    }

    // tchar, RFC 9110 §5.6.2.
    private static bool IsTokenChar(char c)
        => char.IsAsciiLetterOrDigit(c) || c is '!' or '#' or '$' or '%' or '&' or '\'' or '*' or '+' or '-' or '.' or '^' or '_' or '`' or '|' or '~';
}
