using System;

namespace NetCoreServer.Protocols.Http;

/// <summary>What <see cref="HttpBodyReader.Read"/> found.</summary>
internal enum BodyResult
{
    NeedMoreData,
    Done,
    Error,
}

/// <summary>Takes the pieces of a streamed body as they arrive (see <see cref="HttpBodyReader.StreamTo"/>).</summary>
internal interface IHttpBodySink
{
    /// <summary>Body bytes, transfer coding removed; valid during the call only.</summary>
    void BodyReceived(ReadOnlySpan<byte> piece);
}

/// <summary>
/// Reads one message body as it arrives (RFC 9112 §6-§7): a Content-Length body, a chunked body (extensions skipped,
/// trailer fields checked and dropped), or one that lasts until the connection closes; appends the body bytes to the
/// message, or hands them to a sink as they come (<see cref="StreamTo"/>). Body bytes are consumed as they come; only a
/// chunk-size line or a trailer line is left unconsumed while incomplete, each bounded by a limit.
/// </summary>
internal sealed class HttpBodyReader
{
    private enum Framing
    {
        None,
        Length,
        Chunked,
        UntilClose,
    }

    private enum ChunkState
    {
        Size,
        Data,
        DataEnd,
        Trailer,
    }

    private readonly HttpLimits _limits;
    private readonly HttpMessageStore _store;
    private Framing _framing;
    private ChunkState _chunk;
    private long _remaining;
    private int _trailerBytes;
    private int _trailerCount;

    // A streamed body: its sink, its own size limit, and the bytes handed over so far.
    private IHttpBodySink? _sink;
    private long _sinkLimit;
    private long _streamed;

    public HttpBodyReader(HttpLimits limits, HttpMessageStore store)
    {
        _limits = limits;
        _store = store;
    }

    public int ErrorStatus { get; private set; }

    public string ErrorReason { get; private set; } = string.Empty;

    public bool IsChunked => _framing == Framing.Chunked;

    public bool IsUntilClose => _framing == Framing.UntilClose;

    public void StartNone() => Start(Framing.None, 0);

    /// <summary>A body of exactly <paramref name="length"/> bytes (checked against the body limit by the caller).</summary>
    public void StartLength(long length)
    {
        Start(length == 0 ? Framing.None : Framing.Length, length);
        _store.BodyLength = length;
    }

    public void StartChunked() => Start(Framing.Chunked, 0);

    public void StartUntilClose() => Start(Framing.UntilClose, 0);

    /// <summary>
    /// After a Start: the body goes to <paramref name="sink"/> piece by piece instead of the message, up to
    /// <paramref name="limit"/> bytes (over it, 413), so it may be larger than the memory limit.
    /// </summary>
    public void StreamTo(IHttpBodySink sink, long limit)
    {
        _sink = sink;
        _sinkLimit = limit;
    }

    /// <summary>Body bytes kept or handed over so far.</summary>
    private long Taken => _sink != null ? _streamed : _store.BodySize;

    private long Limit => _sink != null ? _sinkLimit : _limits.MaxBodySize;

    private void Start(Framing framing, long length)
    {
        _framing = framing;
        _chunk = ChunkState.Size;
        _remaining = length;
        _trailerBytes = 0;
        _trailerCount = 0;
        _sink = null;
        _streamed = 0;
        ErrorStatus = 0;
        ErrorReason = string.Empty;
    }

    public BodyResult Read(ReadOnlySpan<byte> data, out int consumed)
    {
        consumed = 0;
        switch (_framing)
        {
            case Framing.Length:
                var take = (int)Math.Min(_remaining, data.Length);
                Take(data[..take]);
                _remaining -= take;
                consumed = take;
                return _remaining == 0 ? BodyResult.Done : BodyResult.NeedMoreData;
            case Framing.UntilClose:
                if (_store.BodySize + (long)data.Length > _limits.MaxBodySize)
                    return Fail(413, "the body is larger than allowed");
                _store.AppendBody(data);
                _store.BodyLength = _store.BodySize;
                consumed = data.Length;
                return BodyResult.NeedMoreData;
            case Framing.Chunked:
                return ReadChunked(data, ref consumed);
            default:
                return BodyResult.Done;
        }
    }

    /// <summary>The connection ended: a body read until close is complete, any other unfinished body is cut short.</summary>
    public BodyResult Complete() => _framing switch
    {
        Framing.None or Framing.UntilClose => BodyResult.Done,
        _ => Fail(400, "the connection closed before the body was complete"),
    };

    private BodyResult ReadChunked(ReadOnlySpan<byte> data, ref int consumed)
    {
        while (true)
        {
            var rest = data[consumed..];
            switch (_chunk)
            {
                case ChunkState.Size:
                {
                    var lineLength = FindLine(rest, _limits.MaxChunkLineSize);
                    if (lineLength == -1)
                        return BodyResult.NeedMoreData;
                    if (lineLength == -2)
                        return Fail(400, "a chunk-size line is longer than allowed");
                    if (lineLength == -3)
                        return Fail(400, "a chunk-size line ends in a bare LF");
                    var result = ParseChunkSize(rest[..lineLength]);
                    if (result != BodyResult.NeedMoreData)
                        return result;
                    consumed += lineLength + 2;
                    break;
                }
                case ChunkState.Data:
                {
                    var take = (int)Math.Min(_remaining, rest.Length);
                    Take(rest[..take]);
                    _store.BodyLength = Taken;
                    _remaining -= take;
                    consumed += take;
                    if (_remaining > 0)
                        return BodyResult.NeedMoreData;
                    _chunk = ChunkState.DataEnd;
                    break;
                }
                case ChunkState.DataEnd:
                    if (rest.IsEmpty || (rest.Length == 1 && rest[0] == '\r'))
                        return BodyResult.NeedMoreData;
                    if (rest[0] != '\r' || rest[1] != '\n')
                        return Fail(400, "chunk data is not followed by CRLF");
                    consumed += 2;
                    _chunk = ChunkState.Size;
                    break;
                default:
                {
                    var lineLength = FindLine(rest, _limits.MaxHeadSize - _trailerBytes - 2);
                    if (lineLength == -1)
                        return BodyResult.NeedMoreData;
                    if (lineLength == -2)
                        return Fail(431, "the trailer section is larger than allowed");
                    if (lineLength == -3)
                        return Fail(400, "a trailer line ends in a bare LF");
                    consumed += lineLength + 2;
                    _trailerBytes += lineLength + 2;
                    if (lineLength == 0)
                        return BodyResult.Done;
                    if (++_trailerCount > _limits.MaxHeaderCount)
                        return Fail(431, "too many trailer fields");
                    var problem = HttpSyntax.CheckFieldLine(rest[..lineLength], out _, out _, out _);
                    if (problem != null)
                        return Fail(400, problem);
                    break;
                }
            }
        }
    }

    /// <summary>chunk-size [ BWS ";" chunk-ext ] (RFC 9112 §7.1); NeedMoreData means it was accepted.</summary>
    private BodyResult ParseChunkSize(ReadOnlySpan<byte> line)
    {
        var digits = HttpSyntax.ParseChunkSize(line, out var size);
        if (digits == 0)
            return Fail(400, "invalid chunk size");
        if (digits < 0)
            return Fail(400, "the chunk size is too large");
        var extensions = line[digits..];
        if (!extensions.IsEmpty)
        {
            var semicolon = extensions.IndexOfAnyExcept((byte)' ', (byte)'\t');
            if (semicolon < 0 || extensions[semicolon] != ';')
                return Fail(400, "invalid chunk size");
            if (!HttpSyntax.IsFieldValue(extensions))
                return Fail(400, "a chunk extension holds a control character");
        }
        if (size == 0)
        {
            _chunk = ChunkState.Trailer;
            return BodyResult.NeedMoreData;
        }
        if (Taken + size > Limit)
            return Fail(413, "the body is larger than allowed");
        _remaining = size;
        _chunk = ChunkState.Data;
        return BodyResult.NeedMoreData;
    }

    private void Take(ReadOnlySpan<byte> bytes)
    {
        if (_sink == null)
        {
            _store.AppendBody(bytes);
            return;
        }
        _streamed += bytes.Length;
        if (!bytes.IsEmpty)
            _sink.BodyReceived(bytes);
    }

    /// <summary>
    /// The length of the CRLF-terminated line at the start of <paramref name="data"/> (without CRLF); -1 when it is not
    /// complete yet, -2 when it is (or will be) longer than <paramref name="limit"/> (or the limit is already used up), -3
    /// when it ends in a bare LF.
    /// </summary>
    private static int FindLine(ReadOnlySpan<byte> data, int limit)
    {
        if (limit < 0)
            return -2;
        var window = data[..Math.Min(data.Length, limit + 2)];
        var lf = window.IndexOf((byte)'\n');
        if (lf < 0)
            return data.Length > limit + 1 ? -2 : -1;
        if (lf == 0 || window[lf - 1] != '\r')
            return -3;
        return lf - 1;
    }

    private BodyResult Fail(int status, string reason)
    {
        ErrorStatus = status;
        ErrorReason = reason;
        return BodyResult.Error;
    }
}
