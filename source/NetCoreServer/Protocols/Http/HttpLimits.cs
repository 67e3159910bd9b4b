using System;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// The bounds an HTTP reader holds a peer to, so that nothing a peer sends makes memory grow without limit. Each has a
/// safe default; a reader checks them as data arrives, so a message that is still incomplete when it passes one is
/// refused at once. Changes apply from the next check. The head limits should stay below the connection's receive
/// limit (1 MiB by default), since the engine keeps an incomplete head: otherwise the engine closes first, without an
/// answer.
/// </summary>
internal sealed class HttpLimits
{
    private int _maxRequestLineSize = 8 * 1024;
    private int _maxHeadSize = 32 * 1024;
    private int _maxHeaderCount = 100;
    private long _maxBodySize = 16 * 1024 * 1024;
    private int _maxChunkLineSize = 4 * 1024;

    /// <summary>
    /// The longest start line, without its CRLF: 8 KiB by default. Protects against an endless request target; a
    /// request over it gets 414 (URI Too Long), a response status line over it is refused (400).
    /// </summary>
    public int MaxRequestLineSize
    {
        get => _maxRequestLineSize;
        set => _maxRequestLineSize = Positive(value);
    }

    /// <summary>
    /// The longest head (start line, header fields, the empty line, and any empty lines before the start line): 32 KiB
    /// by default; over it, 431 (Request Header Fields Too Large). The trailer section of a chunked body has the same
    /// bound of its own.
    /// </summary>
    public int MaxHeadSize
    {
        get => _maxHeadSize;
        set => _maxHeadSize = Positive(value);
    }

    /// <summary>The most header fields in a head (and trailer fields in a trailer section): 100 by default; over it, 431.</summary>
    public int MaxHeaderCount
    {
        get => _maxHeaderCount;
        set => _maxHeaderCount = Positive(value);
    }

    /// <summary>
    /// The largest body kept: 16 MiB by default; over it, 413 (Content Too Large). Checked against Content-Length as
    /// soon as the head is in, and against the running total of a chunked or read-until-close body as it grows.
    /// </summary>
    public long MaxBodySize
    {
        get => _maxBodySize;
        set => _maxBodySize = value >= 0 ? value : throw new ArgumentOutOfRangeException(nameof(value), value, "The limit must not be negative.");
    }

    /// <summary>
    /// The longest chunk-size line of a chunked body, chunk extensions included and CRLF excluded: 4 KiB by default;
    /// over it, 400. Extensions are skipped, this only bounds how much of them waits in the receive buffer.
    /// </summary>
    public int MaxChunkLineSize
    {
        get => _maxChunkLineSize;
        set => _maxChunkLineSize = Positive(value);
    }

    private static int Positive(int value)
        => value > 0 ? value : throw new ArgumentOutOfRangeException(nameof(value), value, "The limit must be positive.");
}
