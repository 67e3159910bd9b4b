namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// The fixed bounds of an HTTP/2 server connection (the ones a user tunes are in <see cref="HttpOptions"/>); the
/// reasons and figures are in docs/design/http2.md.
/// </summary>
internal static class Http2Limits
{
    /// <summary>SETTINGS_INITIAL_WINDOW_SIZE this side advertises: what a client may send on a stream before credit comes back.</summary>
    public const int StreamWindow = 768 * 1024;

    /// <summary>The connection's receive window, raised from 65,535 at the start: room for one stream at full speed.</summary>
    public const int ConnectionWindow = 1024 * 1024;

    /// <summary>A streamed response body waits while more than this is pending on its stream (the producer's backpressure).</summary>
    public const int StreamedPendingHigh = 1024 * 1024;

    /// <summary>What a streamed response body is read in; a stream whose window is shut keeps at most about one pending.</summary>
    public const int StreamedChunk = 64 * 1024;

    /// <summary>The largest CONTINUATION-joined field block beyond the header list limit (size updates, encoding slack).</summary>
    public const int FieldBlockSlack = 1024;

    /// <summary>
    /// Flood budgets: how many of a frame kind that costs this side work and gives the client nothing new a
    /// connection may send in a burst, and how many per second after it (a token bucket each). Past one, the
    /// connection gets GOAWAY ENHANCE_YOUR_CALM.
    /// </summary>
    public const int ResetBurst = 200;

    /// <summary>Client resets of open streams refilled per second (rapid reset, CVE-2023-44487).</summary>
    public const int ResetsPerSecond = 100;

    /// <summary>SETTINGS and PING frames (each answered with an ACK) in a burst.</summary>
    public const int ControlBurst = 100;

    /// <summary>SETTINGS and PING frames refilled per second.</summary>
    public const int ControlPerSecond = 20;

    /// <summary>WINDOW_UPDATE frames in a burst (a client sends about one per two frames it receives).</summary>
    public const int WindowUpdateBurst = 10_000;

    /// <summary>WINDOW_UPDATE frames refilled per second.</summary>
    public const int WindowUpdatesPerSecond = 10_000;

    /// <summary>DATA frames without data and without END_STREAM in a burst (they carry nothing).</summary>
    public const int EmptyDataBurst = 100;

    /// <summary>Empty DATA frames refilled per second.</summary>
    public const int EmptyDataPerSecond = 10;
}
