namespace NetCoreServer.Protocols.Http2;

/// <summary>What <see cref="HpackDecoder.Decode{TSink}"/> made of a header block.</summary>
internal enum HpackDecodeResult
{
    /// <summary>Every field was decoded and handed to the sink.</summary>
    Ok,

    /// <summary>
    /// The fields passed the header list size limit: those past it were decoded (so the dynamic table stays in step
    /// with the peer's) but not handed on. The connection can go on; the request is refused (431, or RST_STREAM).
    /// </summary>
    HeaderListTooLarge,

    /// <summary>
    /// The block is malformed (RFC 7541 §2.3.3, §4.2, §5, §6): a connection error of type COMPRESSION_ERROR, since the
    /// dynamic table can no longer be trusted. <see cref="HpackDecoder.ErrorReason"/> says what.
    /// </summary>
    CompressionError,
}
