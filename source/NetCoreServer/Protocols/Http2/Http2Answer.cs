namespace NetCoreServer.Protocols.Http2;

/// <summary>Where a stream's request and its answer are (the HTTP/2 counterpart of HTTP/1.1's one answer owed).</summary>
internal enum Http2Answer
{
    /// <summary>The request is still arriving (HEADERS, DATA).</summary>
    Arriving,

    /// <summary>The request is whole and waits for its turn at the hooks.</summary>
    Queued,

    /// <summary>Handed to the hooks: one response may claim it.</summary>
    Owed,

    /// <summary>A response was claimed and more of its body is to come (SendResponseBody, or a streamed body).</summary>
    Writing,

    /// <summary>Answered whole, reset, or refused: nothing more is sent for it.</summary>
    Done,
}
