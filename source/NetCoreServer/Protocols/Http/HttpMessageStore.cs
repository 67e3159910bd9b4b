using System;
using System.Text;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// The storage behind <see cref="HttpRequest"/> and <see cref="HttpResponse"/>: the message's wire bytes in one
/// <see cref="Buffer"/> and, for each part (the three pieces of the start line, each field name and value, each
/// cookie, the body), where it lies in them. Strings are made only when asked for, once, and shared ones come from
/// <see cref="HttpKnownStrings"/>; a builder that already holds a part's string keeps it. Every array is kept and
/// reused by <see cref="Clear"/>, so a reused message stops allocating once it has grown to its largest message.
/// </summary>
internal sealed class HttpMessageStore
{
    private readonly TextRange[] _start = new TextRange[3];

    // The strings last made for the start line's parts, kept across Clear: a connection that asks for the same target
    // again (a keep-alive client polling one URL) gets the same string back instead of a new one per request.
    private readonly string?[] _recentStart = new string?[3];
    private TextRange[] _names = new TextRange[16];
    private TextRange[] _values = new TextRange[16];
    private int _fieldCount;
    private TextRange[] _cookieNames = new TextRange[4];
    private TextRange[] _cookieValues = new TextRange[4];
    private int _cookieCount;
    private bool _cookiesKnown = true;
    private string? _body;

    public Buffer Cache { get; } = new();

    /// <summary>The response status (responses only).</summary>
    public int Status { get; set; }

    /// <summary>Where the body starts in <see cref="Cache"/>; 0 while no head is complete.</summary>
    public int BodyStart { get; private set; }

    /// <summary>How many body bytes <see cref="Cache"/> holds.</summary>
    public int BodySize { get; private set; }

    /// <summary>The body length: Content-Length as declared (or as set by SetBodyLength), or the bytes of a body without one.</summary>
    public long BodyLength { get; set; }

    public bool IsErrorSet { get; set; }

    public int FieldCount => _fieldCount;

    public void Clear()
    {
        Cache.Clear();
        _start.AsSpan().Clear();
        _names.AsSpan(0, _fieldCount).Clear();
        _values.AsSpan(0, _fieldCount).Clear();
        _cookieNames.AsSpan(0, _cookieCount).Clear();
        _cookieValues.AsSpan(0, _cookieCount).Clear();
        _fieldCount = 0;
        _cookieCount = 0;
        _cookiesKnown = true;
        _body = null;
        Status = 0;
        BodyStart = 0;
        BodySize = 0;
        BodyLength = 0;
        IsErrorSet = false;
    }

    public void SetStart(int part, int start, int length, string? text) => _start[part] = new TextRange(start, length, text);

    /// <summary>A start-line part as a string; <paramref name="likely"/> is returned instead of a new string when the bytes spell it.</summary>
    public string Start(int part, string? likely = null)
    {
        ref var range = ref _start[part];
        if (range.Text == null && likely != null && System.Text.Ascii.Equals(Span(range), likely))
            range.Text = likely;
        if (range.Text == null && _recentStart[part] is { } recent && System.Text.Ascii.Equals(Span(range), recent))
            range.Text = recent;
        return _recentStart[part] = Text(ref range);
    }

    public ReadOnlySpan<byte> StartSpan(int part) => Span(_start[part]);

    public void AddField(int nameStart, int nameLength, int valueStart, int valueLength, string? name = null, string? value = null)
    {
        if (_fieldCount == _names.Length)
        {
            Array.Resize(ref _names, _fieldCount * 2);
            Array.Resize(ref _values, _fieldCount * 2);
        }
        _names[_fieldCount] = new TextRange(nameStart, nameLength, name);
        _values[_fieldCount] = new TextRange(valueStart, valueLength, value);
        _fieldCount++;
    }

    /// <summary>The number of header fields named <paramref name="lowerName"/> (matched case-insensitively).</summary>
    public int CountFields(ReadOnlySpan<byte> lowerName)
    {
        var count = 0;
        for (var i = 0; i < FieldCount; i++)
        {
            if (HttpSyntax.EqualsIgnoreCase(FieldName(i), lowerName))
                count++;
        }
        return count;
    }

    /// <summary>The index of the first field named <paramref name="lowerName"/> (matched case-insensitively), or -1 when there is none.</summary>
    public int FindField(ReadOnlySpan<byte> lowerName)
    {
        for (var i = 0; i < FieldCount; i++)
        {
            if (HttpSyntax.EqualsIgnoreCase(FieldName(i), lowerName))
                return i;
        }
        return -1;
    }

    /// <summary>True when some field named <paramref name="lowerName"/> lists <paramref name="lowerToken"/> (comma-separated, case-insensitive).</summary>
    public bool HasToken(ReadOnlySpan<byte> lowerName, ReadOnlySpan<byte> lowerToken)
    {
        for (var i = 0; i < FieldCount; i++)
        {
            if (!HttpSyntax.EqualsIgnoreCase(FieldName(i), lowerName))
                continue;
            var list = new HttpSyntax.ListReader(FieldValue(i));
            while (list.Next(out var element))
            {
                if (HttpSyntax.EqualsIgnoreCase(element, lowerToken))
                    return true;
            }
        }
        return false;
    }

    /// <summary>The message as it goes on the wire, split where its body starts: head and body are sent as one unit.</summary>
    public void Split(out ReadOnlySpan<byte> head, out ReadOnlySpan<byte> body)
    {
        var whole = Cache.AsSpan();
        var bodyStart = Math.Clamp(BodyStart - (int)Cache.Offset, 0, whole.Length);
        head = whole[..bodyStart];
        body = whole[bodyStart..];
    }

    /// <summary>
    /// The elements of every field named <paramref name="lowerName"/>, in order, as one list (RFC 9110 §5.3 lets a list
    /// be split over fields); empty elements skipped. Null when there is no such field.
    /// </summary>
    public string? JoinFields(ReadOnlySpan<byte> lowerName)
    {
        StringBuilder? joined = null;
        for (var i = 0; i < FieldCount; i++)
        {
            if (!HttpSyntax.EqualsIgnoreCase(FieldName(i), lowerName))
                continue;
            joined ??= new StringBuilder();
            if (joined.Length > 0)
                joined.Append(", ");
            joined.Append(System.Text.Encoding.Latin1.GetString(FieldValue(i)));
        }
        return joined?.ToString();
    }

    public (string, string) Field(int index)
        => (uint)index < (uint)_fieldCount ? (Text(ref _names[index]), Text(ref _values[index])) : (string.Empty, string.Empty);

    public ReadOnlySpan<byte> FieldName(int index) => Span(_names[index]);

    public ReadOnlySpan<byte> FieldValue(int index) => Span(_values[index]);

    /// <summary>True when the last field's line ends the cache (nothing written after it).</summary>
    public bool LastFieldEndsCache(out int index)
    {
        index = _fieldCount - 1;
        return index >= 0 && _values[index].Start + _values[index].Length + 2 == Cache.Size;
    }

    /// <summary>Stretches the last field's value up to the CRLF that now ends the cache (its line grew); its string is made again when next asked for.</summary>
    public void ExtendFieldValueToLineEnd(int index)
    {
        var start = _values[index].Start;
        _values[index] = new TextRange(start, (int)Cache.Size - 2 - start, null);
    }

    public int CookieCount
    {
        get
        {
            EnsureCookies();
            return _cookieCount;
        }
    }

    public (string, string) Cookie(int index)
    {
        EnsureCookies();
        return (uint)index < (uint)_cookieCount ? (Text(ref _cookieNames[index]), Text(ref _cookieValues[index])) : (string.Empty, string.Empty);
    }

    public void AddCookie(int nameStart, int nameLength, int valueStart, int valueLength, string? name = null, string? value = null)
    {
        if (_cookieCount == _cookieNames.Length)
        {
            Array.Resize(ref _cookieNames, _cookieCount * 2);
            Array.Resize(ref _cookieValues, _cookieCount * 2);
        }
        _cookieNames[_cookieCount] = new TextRange(nameStart, nameLength, name);
        _cookieValues[_cookieCount] = new TextRange(valueStart, valueLength, value);
        _cookieCount++;
    }

    /// <summary>Copies a parsed head into the cache (the ranges already point into it); the body follows it.</summary>
    public void CommitHead(ReadOnlySpan<byte> head)
    {
        Cache.Clear();
        Cache.Append(head);
        BeginBody();
        // Cookies of a parsed message are found in its Cookie fields when first asked for.
        _cookiesKnown = false;
    }

    /// <summary>Ends a head written field by field for a received message (an HTTP/2 request): the body follows it.</summary>
    public void EndReceivedHead()
    {
        Write("\r\n"u8);
        BeginBody();
        _cookiesKnown = false;
    }

    public void BeginBody()
    {
        BodyStart = (int)Cache.Size;
        BodySize = 0;
        _body = null;
    }

    /// <summary>Forgets the body bytes kept so far (they were handed to a streamed body's hook); the head stays.</summary>
    public void DropBody()
    {
        Cache.Resize(BodyStart);
        BeginBody();
    }

    public void AppendBody(ReadOnlySpan<byte> bytes)
    {
        if (bytes.IsEmpty)
            return;
        Cache.Append(bytes);
        BodySize += bytes.Length;
        _body = null;
    }

    public string Body => _body ??= BodySize == 0 ? string.Empty : Encoding.UTF8.GetString(BodySpan);

    public ReadOnlySpan<byte> BodySpan => new(Cache.Data, BodyStart, BodySize);

    /// <summary>The body bytes in the cache, writable (NetCoreServer's <c>HttpRequest.BodySpan</c> is a <see cref="Span{T}"/>).</summary>
    public Span<byte> BodyWritableSpan => new(Cache.Data, BodyStart, BodySize);

    /// <summary>Appends text to the cache and returns where it went.</summary>
    public (int Start, int Length) Write(ReadOnlySpan<char> text)
    {
        var start = (int)Cache.Size;
        Cache.Append(text);
        return (start, (int)Cache.Size - start);
    }

    public (int Start, int Length) Write(ReadOnlySpan<byte> bytes)
    {
        var start = (int)Cache.Size;
        Cache.Append(bytes);
        return (start, bytes.Length);
    }

    public (int Start, int Length) Write(long number)
    {
        Span<byte> digits = stackalloc byte[20];
        number.TryFormat(digits, out var written, provider: System.Globalization.CultureInfo.InvariantCulture);
        return Write(digits[..written]);
    }

    /// <summary>Writes <c>name: value</c> and its CRLF, keeping both strings.</summary>
    public void WriteField(string name, string value)
    {
        var n = Write(name);
        Write(": "u8);
        var v = Write(value);
        Write("\r\n"u8);
        AddField(n.Start, n.Length, v.Start, v.Length, name, value);
    }

    /// <summary>Writes <c>Content-Length: N</c>, the empty line ending the head, and marks the body start.</summary>
    public void WriteContentLengthAndEndHead(long length)
    {
        var n = Write("Content-Length"u8);
        Write(": "u8);
        var v = Write(length);
        Write("\r\n\r\n"u8);
        AddField(n.Start, n.Length, v.Start, v.Length, "Content-Length");
        BeginBody();
        BodyLength = length;
    }

    public void WriteBody(ReadOnlySpan<byte> body)
    {
        WriteContentLengthAndEndHead(body.Length);
        AppendBody(body);
    }

    public void WriteBody(ReadOnlySpan<char> body)
    {
        WriteContentLengthAndEndHead(body.IsEmpty ? 0 : Encoding.UTF8.GetByteCount(body));
        BodySize = (int)Cache.Append(body);
    }

    private void EnsureCookies()
    {
        if (_cookiesKnown)
            return;
        _cookiesKnown = true;
        for (var i = 0; i < _fieldCount; i++)
        {
            if (HttpSyntax.EqualsIgnoreCase(FieldName(i), "cookie"u8))
                ParseCookies(_values[i].Start, _values[i].Length);
        }
    }

    /// <summary>Splits a Cookie field value (RFC 6265 §5.4: <c>name=value</c> pairs separated by <c>;</c>); pairs without a name are skipped.</summary>
    private void ParseCookies(int start, int length)
    {
        var data = Cache.Data;
        var end = start + length;
        var pos = start;
        while (pos < end)
        {
            var pairEnd = Array.IndexOf(data, (byte)';', pos, end - pos);
            if (pairEnd < 0)
                pairEnd = end;
            var equals = Array.IndexOf(data, (byte)'=', pos, pairEnd - pos);
            if (equals > pos)
            {
                var (nameStart, nameLength) = Trim(data, pos, equals);
                var (valueStart, valueLength) = Trim(data, equals + 1, pairEnd);
                if (nameLength > 0)
                    AddCookie(nameStart, nameLength, valueStart, valueLength);
            }
            pos = pairEnd + 1;
        }
    }

    private static (int Start, int Length) Trim(byte[] data, int start, int end)
    {
        while (start < end && HttpSyntax.IsWhitespace(data[start]))
            start++;
        while (end > start && HttpSyntax.IsWhitespace(data[end - 1]))
            end--;
        return (start, end - start);
    }

    private ReadOnlySpan<byte> Span(in TextRange range) => new(Cache.Data, range.Start, range.Length);

    private string Text(ref TextRange range) => range.Text ??= HttpKnownStrings.Get(Span(range));

    /// <summary>A part of the message: where its bytes are in the cache, and its string once made.</summary>
    private struct TextRange(int start, int length, string? text)
    {
        public int Start = start;
        public int Length = length;
        public string? Text = text;
    }
}
