using System;
using System.Buffers;
using System.Text;

namespace NetCoreServer.Examples;

/// <summary>
/// Turns received chunks of a UTF-8 stream into text. A character may be split between two receives: its first
/// bytes are kept until the rest arrives, instead of becoming a replacement character.
/// </summary>
/// <remarks>Not thread-safe. One per connection fits the library's receive hooks, whose calls for one
/// connection never overlap.</remarks>
public sealed class Utf8ChunkDecoder
{
    private readonly Decoder _decoder = Encoding.UTF8.GetDecoder();

    /// <summary>Decodes one received chunk.</summary>
    /// <param name="bytes">The chunk; it is not kept, so a pooled receive buffer is fine.</param>
    /// <returns>The complete characters so far; empty when the chunk only began a character.</returns>
    public string Decode(ReadOnlySpan<byte> bytes)
    {
        var chars = ArrayPool<char>.Shared.Rent(Encoding.UTF8.GetMaxCharCount(bytes.Length));
        try
        {
            var count = _decoder.GetChars(bytes, chars, flush: false);
            return new string(chars, 0, count);
        }
        finally
        {
            ArrayPool<char>.Shared.Return(chars);
        }
    }

    /// <summary>Forgets a partial character: call when a new connection starts a new stream.</summary>
    public void Reset() => _decoder.Reset();
}
