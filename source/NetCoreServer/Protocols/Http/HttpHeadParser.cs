using System;

namespace NetCoreServer.Protocols.Http;

/// <summary>What <see cref="HttpHeadParser.Parse"/> found.</summary>
internal enum HeadResult
{
    Incomplete,
    Complete,
    Error,
}

/// <summary>
/// Parses the head of one message (start line and field lines, RFC 9112 §2-§5) as it arrives, into an
/// <see cref="HttpMessageStore"/>, and notes the fields that decide framing and the connection (Content-Length,
/// Transfer-Encoding, Connection, Expect). It keeps no bytes: each call is handed everything received so far for the
/// head, from its first byte (the engine keeps what was not consumed), and resumes after the last complete line it
/// checked, so a head trickling in byte by byte is still scanned once. Lines must end in CRLF: a bare LF or CR is refused.
/// </summary>
internal sealed class HttpHeadParser
{
    // RFC 9112 §2.2 asks a server to skip at least one empty line before a request line (a client's stray CRLF after
    // a body); four are skipped, more are refused, which also keeps the start-line limit deciding before the head limit.
    private const int MaxSkippedBytes = 4 * 2;

    private readonly bool _request;
    private readonly HttpLimits _limits;
    private readonly HttpMessageStore _store;
    private int _scanned;
    private int _searched;
    private bool _startLineDone;

    public HttpHeadParser(bool request, HttpLimits limits, HttpMessageStore store)
    {
        _request = request;
        _limits = limits;
        _store = store;
        Reset();
    }

    /// <summary>Bytes of empty lines before the start line (RFC 9112 §2.2 lets a server skip them); not part of the message.</summary>
    public int Skipped { get; private set; }

    /// <summary>Once complete: the head's length from the first byte handed in, empty lines before it and the final CRLF included.</summary>
    public int HeadLength { get; private set; }

    /// <summary>True when the last call was handed bytes of a message (not only empty lines).</summary>
    public bool HasPartialHead { get; private set; }

    /// <summary>10 for HTTP/1.0, 11 for HTTP/1.1.</summary>
    public int Version { get; private set; }

    /// <summary>The Content-Length (all values agreeing), or -1 when there is none.</summary>
    public long ContentLength { get; private set; }

    public bool HasTransferEncoding { get; private set; }

    /// <summary>The transfer codings listed, over all Transfer-Encoding fields.</summary>
    public int TransferCodings { get; private set; }

    public int ChunkedCount { get; private set; }

    /// <summary>True when the last transfer coding listed is chunked.</summary>
    public bool ChunkedLast { get; private set; }

    public bool ChunkedHasParameters { get; private set; }

    /// <summary>True when a transfer coding other than chunked is listed.</summary>
    public bool OtherCodings { get; private set; }

    public bool ConnectionClose { get; private set; }

    public bool ConnectionKeepAlive { get; private set; }

    public bool ExpectContinue { get; private set; }

    public int ErrorStatus { get; private set; }

    public string ErrorReason { get; private set; } = string.Empty;

    public void Reset()
    {
        _scanned = 0;
        _searched = 0;
        _startLineDone = false;
        Skipped = 0;
        HeadLength = 0;
        HasPartialHead = false;
        Version = 0;
        ContentLength = -1;
        HasTransferEncoding = false;
        TransferCodings = 0;
        ChunkedCount = 0;
        ChunkedLast = false;
        ChunkedHasParameters = false;
        OtherCodings = false;
        ConnectionClose = false;
        ConnectionKeepAlive = false;
        ExpectContinue = false;
        ErrorStatus = 0;
        ErrorReason = string.Empty;
    }

    /// <summary>
    /// Parses the complete lines of <paramref name="data"/> not parsed yet. <paramref name="data"/> must start with the
    /// bytes handed in before (it is shorter only if the caller dropped them, and then the head is parsed again from scratch).
    /// </summary>
    public HeadResult Parse(ReadOnlySpan<byte> data)
    {
        if (data.Length < _searched)
        {
            _store.Clear();
            Reset();
        }
        while (true)
        {
            var found = data[_searched..].IndexOf((byte)'\n');
            if (found < 0)
            {
                _searched = data.Length;
                HasPartialHead = data.Length > Skipped;
                return CheckIncomplete(data.Length);
            }
            var lineStart = _scanned;
            var lineEnd = _searched + found + 1;
            _scanned = _searched = lineEnd;

            // Limits first, with the same arithmetic as CheckIncomplete: the outcome must not depend on where the
            // input was split, so a line that passes a limit fails the same way complete or still arriving.
            if (!_startLineDone && lineEnd - 1 - lineStart > _limits.MaxRequestLineSize + 1)
                return StartLineTooLong();
            if (lineEnd > _limits.MaxHeadSize)
                return Fail(431, "the head is larger than allowed");
            if (lineEnd - lineStart < 2 || data[lineEnd - 2] != '\r')
                return Fail(400, "a line ends in a bare LF (CRLF required)");
            var line = data[lineStart..(lineEnd - 2)];
            var position = lineStart - Skipped;

            if (!_startLineDone)
            {
                if (line.IsEmpty)
                {
                    Skipped = lineEnd;
                    if (Skipped > MaxSkippedBytes)
                        return Fail(400, "too many empty lines before the start line");
                    continue;
                }
                if (!(_request ? ParseRequestLine(line, position) : ParseStatusLine(line, position)))
                    return HeadResult.Error;
                _startLineDone = true;
            }
            else if (line.IsEmpty)
            {
                HeadLength = lineEnd;
                return HeadResult.Complete;
            }
            else
            {
                if (_store.FieldCount >= _limits.MaxHeaderCount)
                    return Fail(431, "too many header fields");
                if (!ParseField(line, position))
                    return HeadResult.Error;
            }
        }
    }

    /// <summary>The head is not complete: refuse at once if it already passed a limit it can no longer meet.</summary>
    private HeadResult CheckIncomplete(int length)
    {
        // + 1: the line's CR may be here with its LF still to come.
        if (!_startLineDone && length - _scanned > _limits.MaxRequestLineSize + 1)
            return StartLineTooLong();
        if (length > _limits.MaxHeadSize)
            return Fail(431, "the head is larger than allowed");
        return HeadResult.Incomplete;
    }

    private HeadResult StartLineTooLong()
        => _request ? Fail(414, "the request line is longer than allowed") : Fail(400, "the status line is longer than allowed");

    /// <summary>method SP request-target SP HTTP-version (RFC 9112 §3), single spaces.</summary>
    private bool ParseRequestLine(ReadOnlySpan<byte> line, int position)
    {
        var methodEnd = line.IndexOf((byte)' ');
        if (methodEnd <= 0)
            return FailLine(400, "malformed request line");
        if (!HttpSyntax.IsToken(line[..methodEnd]))
            return FailLine(400, "the method is not a token");
        var targetStart = methodEnd + 1;
        var targetLength = line[targetStart..].IndexOf((byte)' ');
        if (targetLength <= 0)
            return FailLine(400, "malformed request line");
        if (!HttpSyntax.IsRequestTarget(line.Slice(targetStart, targetLength)))
            return FailLine(400, "the request target holds a control character");
        var versionStart = targetStart + targetLength + 1;
        if (!CheckVersion(line[versionStart..]))
            return false;
        _store.SetStart(0, position, methodEnd, null);
        _store.SetStart(1, position + targetStart, targetLength, null);
        _store.SetStart(2, position + versionStart, line.Length - versionStart, null);
        return true;
    }

    /// <summary>HTTP-version SP 3DIGIT SP [reason-phrase] (RFC 9112 §4); a missing SP after the code is let through.</summary>
    private bool ParseStatusLine(ReadOnlySpan<byte> line, int position)
    {
        if (line.Length < 12 || line[8] != ' ')
            return FailLine(400, "malformed status line");
        if (!CheckVersion(line[..8]))
            return false;
        var status = 0;
        foreach (var digit in line[9..12])
        {
            if (!char.IsAsciiDigit((char)digit))
                return FailLine(400, "the status code is not three digits");
            status = status * 10 + digit - '0';
        }
        if (status < 100 || status > 599)
            return FailLine(400, "the status code is out of range");
        var phraseStart = line.Length > 12 ? 13 : 12;
        if (line.Length > 12 && line[12] != ' ')
            return FailLine(400, "malformed status line");
        if (!HttpSyntax.IsFieldValue(line[phraseStart..]))
            return FailLine(400, "the reason phrase holds a control character");
        _store.Status = status;
        _store.SetStart(0, position, 8, null);
        _store.SetStart(1, position + 9, 3, null);
        _store.SetStart(2, position + phraseStart, line.Length - phraseStart, null);
        return true;
    }

    private bool CheckVersion(ReadOnlySpan<byte> version)
    {
        Version = HttpSyntax.ParseVersion(version);
        if (Version < 0)
            return FailLine(400, "malformed HTTP version");
        if (Version == 0)
            return FailLine(505, "only HTTP/1.0 and HTTP/1.1 are supported");
        return true;
    }

    private bool ParseField(ReadOnlySpan<byte> line, int position)
    {
        var problem = HttpSyntax.CheckFieldLine(line, out var colon, out var valueStart, out var valueLength);
        if (problem != null)
            return FailLine(400, problem);
        _store.AddField(position, colon, position + valueStart, valueLength);
        var name = line[..colon];
        var value = line.Slice(valueStart, valueLength);
        return name.Length switch
        {
            14 when HttpSyntax.EqualsIgnoreCase(name, "content-length"u8) => ReadContentLength(value),
            17 when HttpSyntax.EqualsIgnoreCase(name, "transfer-encoding"u8) => ReadTransferEncoding(value),
            10 when HttpSyntax.EqualsIgnoreCase(name, "connection"u8) => ReadConnection(value),
            6 when HttpSyntax.EqualsIgnoreCase(name, "expect"u8) => ReadExpect(value),
            _ => true,
        };
    }

    /// <summary>RFC 9110 §8.6: one decimal value; repeated values (in a list or in several fields) are accepted only when they agree.</summary>
    private bool ReadContentLength(ReadOnlySpan<byte> value)
    {
        var list = new HttpSyntax.ListReader(value);
        while (list.Next(out var element))
        {
            if (!HttpSyntax.TryParseDecimal(element, out var length))
                return FailLine(400, "invalid Content-Length");
            if (ContentLength >= 0 && ContentLength != length)
                return FailLine(400, "conflicting Content-Length values");
            ContentLength = length;
        }
        return true;
    }

    /// <summary>RFC 9112 §6.1: a list of codings, each a token with optional parameters; the readers judge the result.</summary>
    private bool ReadTransferEncoding(ReadOnlySpan<byte> value)
    {
        HasTransferEncoding = true;
        var list = new HttpSyntax.ListReader(value);
        while (list.Next(out var element))
        {
            if (element.IsEmpty)
                continue;
            var parameters = element.IndexOf((byte)';');
            var coding = parameters < 0 ? element : HttpSyntax.TrimWhitespace(element[..parameters]);
            if (!HttpSyntax.IsToken(coding))
                return FailLine(400, "invalid transfer coding");
            TransferCodings++;
            ChunkedLast = HttpSyntax.EqualsIgnoreCase(coding, "chunked"u8);
            if (ChunkedLast)
            {
                ChunkedCount++;
                ChunkedHasParameters |= parameters >= 0;
            }
            else
            {
                OtherCodings = true;
            }
        }
        return true;
    }

    private bool ReadConnection(ReadOnlySpan<byte> value)
    {
        var list = new HttpSyntax.ListReader(value);
        while (list.Next(out var option))
        {
            if (HttpSyntax.EqualsIgnoreCase(option, "close"u8))
                ConnectionClose = true;
            else if (HttpSyntax.EqualsIgnoreCase(option, "keep-alive"u8))
                ConnectionKeepAlive = true;
        }
        return true;
    }

    private bool ReadExpect(ReadOnlySpan<byte> value)
    {
        if (HttpSyntax.EqualsIgnoreCase(value, "100-continue"u8))
            ExpectContinue = true;
        return true;
    }

    private bool FailLine(int status, string reason)
    {
        Fail(status, reason);
        return false;
    }

    private HeadResult Fail(int status, string reason)
    {
        ErrorStatus = status;
        ErrorReason = reason;
        return HeadResult.Error;
    }
}
