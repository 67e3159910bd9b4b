namespace NetCoreServer.Protocols.Http2;

/// <summary>What a call to <see cref="Http2FrameReader.Read"/> found.</summary>
internal enum Http2ReadStatus
{
    /// <summary>No whole frame yet: call again with more data (the unconsumed bytes first).</summary>
    NeedMoreData,

    /// <summary>A whole, valid frame, consumed.</summary>
    Frame,

    /// <summary>
    /// A frame that breaks the rules for one stream only (§5.4.2), consumed: RST_STREAM
    /// <see cref="Http2FrameReader.ErrorStreamId"/> with <see cref="Http2FrameReader.ErrorCode"/>; the connection goes on.
    /// </summary>
    StreamError,

    /// <summary>
    /// The connection is broken (§5.4.1): send GOAWAY with <see cref="Http2FrameReader.ErrorCode"/> and close. The reader
    /// stays failed.
    /// </summary>
    ConnectionError,
}
