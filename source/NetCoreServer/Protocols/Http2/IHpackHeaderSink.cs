using System;

namespace NetCoreServer.Protocols.Http2;

/// <summary>Receives the fields an <see cref="HpackDecoder"/> decodes from a header block, in order.</summary>
internal interface IHpackHeaderSink
{
    /// <summary>
    /// One field. The spans point into the header block, the decoder's scratch buffer or its dynamic table and are
    /// valid only during the call: copy what is kept. <paramref name="neverIndexed"/> is true for a field the sender
    /// marked never-indexed (§6.2.3), which a proxy must forward the same way.
    /// </summary>
    void OnHeader(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value, bool neverIndexed);
}
