using System;
using System.Collections.Generic;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// Turns a decoded HEADERS block into an <see cref="HttpRequest"/>, so the hooks see method, URL, header fields and
/// cookies as they do for HTTP/1.1: the request line is <c>METHOD path HTTP/2</c>, <c>:authority</c> becomes a Host
/// field when the client sent none, and the fields follow in the order received. Checked on the way (RFC 9113 §8.2,
/// §8.3; a failure makes the request malformed, a stream PROTOCOL_ERROR): lowercase names, valid characters, the
/// pseudo-header fields before the others, each once, only the request ones, the required ones present, and no
/// connection-specific field (TE other than "trailers"). One per connection, reused; receive thread only.
/// </summary>
internal sealed class Http2RequestBuilder : IHpackHeaderSink
{
    private readonly List<(int NameStart, int NameLength, int ValueStart, int ValueLength)> _fields = new();
    private byte[] _bytes = new byte[1024];
    private int _length;
    private (int Start, int Length) _method;
    private (int Start, int Length) _scheme;
    private (int Start, int Length) _authority;
    private (int Start, int Length) _path;
    private bool _regularSeen;
    private bool _trailers;

    /// <summary>Why the block is malformed, or null.</summary>
    public string? Error { get; private set; }

    /// <summary>The request's Content-Length, or -1.</summary>
    public long ContentLength { get; private set; }

    /// <summary>Starts a block: a request head, or a trailer section (<paramref name="trailers"/>: fields checked, then dropped).</summary>
    public void Begin(bool trailers)
    {
        _fields.Clear();
        _length = 0;
        _method = _scheme = _authority = _path = default;
        _regularSeen = false;
        _trailers = trailers;
        Error = null;
        ContentLength = -1;
    }

    public void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, bool neverIndexed)
    {
        if (Error != null)
            return;
        if (name.IsEmpty)
        {
            Error = "an empty field name";
            return;
        }
        if (value.IndexOfAny((byte)0, (byte)'\r', (byte)'\n') >= 0 || (!value.IsEmpty && (HttpSyntax.IsWhitespace(value[0]) || HttpSyntax.IsWhitespace(value[^1]))))
        {
            Error = "a field value with NUL, CR, LF or surrounding whitespace";
            return;
        }
        if (name[0] == (byte)':')
        {
            Pseudo(name, value);
            return;
        }
        _regularSeen = true;
        if (!HttpSyntax.IsToken(name) || name.IndexOfAnyInRange((byte)'A', (byte)'Z') >= 0)
        {
            Error = "a field name that is not a lowercase token";
            return;
        }
        if (IsConnectionSpecific(name, value))
        {
            Error = "a connection-specific field";
            return;
        }
        if (_trailers)
            return;
        if (name.SequenceEqual("content-length"u8))
        {
            if (!HttpSyntax.TryParseDecimal(value, out var length) || (ContentLength >= 0 && ContentLength != length))
            {
                Error = "an invalid Content-Length";
                return;
            }
            ContentLength = length;
        }
        var nameAt = Append(name);
        var valueAt = Append(value);
        _fields.Add((nameAt, name.Length, valueAt, value.Length));
    }

    private void Pseudo(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        if (_regularSeen || _trailers)
        {
            Error = "a pseudo-header field after a regular one, or in trailers";
            return;
        }
        ref var slot = ref _method;
        if (name.SequenceEqual(":method"u8))
            slot = ref _method;
        else if (name.SequenceEqual(":scheme"u8))
            slot = ref _scheme;
        else if (name.SequenceEqual(":authority"u8))
            slot = ref _authority;
        else if (name.SequenceEqual(":path"u8))
            slot = ref _path;
        else
        {
            Error = "an unknown or response pseudo-header field";
            return;
        }
        if (slot.Length != 0)
        {
            Error = "a pseudo-header field twice";
            return;
        }
        if (value.IsEmpty)
        {
            Error = "an empty pseudo-header field";
            return;
        }
        slot = (Append(value), value.Length);
    }

    /// <summary>
    /// Once the block is decoded: fills <paramref name="request"/>; false (with <see cref="Error"/>) when the block is
    /// malformed or lacks a required pseudo-header field.
    /// </summary>
    public bool Build(HttpRequest request, out bool headOnly)
    {
        headOnly = false;
        if (Error != null)
            return false;
        var method = Span(_method);
        var connect = method.SequenceEqual("CONNECT"u8);
        if (method.IsEmpty || (!connect && (_scheme.Length == 0 || _path.Length == 0)) || (connect && (_authority.Length == 0 || _scheme.Length != 0 || _path.Length != 0)))
        {
            Error = "a missing or extra pseudo-header field";
            return false;
        }
        if (!HttpSyntax.IsToken(method) || (!connect && !HttpSyntax.IsRequestTarget(Span(_path))))
        {
            Error = "an invalid :method or :path";
            return false;
        }
        headOnly = method.SequenceEqual("HEAD"u8);
        var store = request.Store;
        store.Clear();
        var m = store.Write(method);
        store.Write(" "u8);
        var u = store.Write(connect ? Span(_authority) : Span(_path));
        store.Write(" "u8);
        var p = store.Write("HTTP/2"u8);
        store.Write("\r\n"u8);
        store.SetStart(0, m.Start, m.Length, null);
        store.SetStart(1, u.Start, u.Length, null);
        store.SetStart(2, p.Start, p.Length, "HTTP/2");
        if (_authority.Length != 0 && !HasHost())
            WriteField(store, "host"u8, Span(_authority));
        foreach (var (nameAt, nameLength, valueAt, valueLength) in _fields)
            WriteField(store, _bytes.AsSpan(nameAt, nameLength), _bytes.AsSpan(valueAt, valueLength));
        store.EndReceivedHead();
        return true;
    }

    private bool HasHost()
    {
        foreach (var field in _fields)
        {
            if (_bytes.AsSpan(field.NameStart, field.NameLength).SequenceEqual("host"u8))
                return true;
        }
        return false;
    }

    private static void WriteField(HttpMessageStore store, ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        var n = store.Write(name);
        store.Write(": "u8);
        var v = store.Write(value);
        store.Write("\r\n"u8);
        store.AddField(n.Start, n.Length, v.Start, v.Length);
    }

    // RFC 9113 §8.2.2: fields that only mean something to one HTTP/1.1 connection.
    private static bool IsConnectionSpecific(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
        => name.SequenceEqual("connection"u8) || name.SequenceEqual("keep-alive"u8) || name.SequenceEqual("proxy-connection"u8)
            || name.SequenceEqual("transfer-encoding"u8) || name.SequenceEqual("upgrade"u8)
            || (name.SequenceEqual("te"u8) && !value.SequenceEqual("trailers"u8));

    private ReadOnlySpan<byte> Span((int Start, int Length) range) => _bytes.AsSpan(range.Start, range.Length);

    private int Append(ReadOnlySpan<byte> bytes)
    {
        if (_length + bytes.Length > _bytes.Length)
            Array.Resize(ref _bytes, Math.Max(_bytes.Length * 2, _length + bytes.Length));
        var at = _length;
        bytes.CopyTo(_bytes.AsSpan(at));
        _length += bytes.Length;
        return at;
    }
}
