using System;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// Raw bytes a relay brought to a WebSocket server: what a node's <c>Multicast</c> of whole frames sends, checked with
/// the client-side decoder (unmasked frames, no extension bits, RFC 6455 §5). Taken only when every frame is a data
/// frame and the bytes end between messages; each message is then framed again by this server, so nothing from
/// outside reaches a connection as it came. Not on a hot path: each call decodes into a pooled buffer.
/// </summary>
internal static class WsRelayedFrames
{
    /// <summary>The verdict on <paramref name="frames"/>, delivering nothing.</summary>
    public static RelayedVerdict Check(ReadOnlySpan<byte> frames, int maxMessageSize) => Walk(frames, maxMessageSize, null);

    /// <summary>Decodes <paramref name="frames"/>, handing each whole message to <paramref name="deliver"/> (after <see cref="Check"/>: all or nothing).</summary>
    public static RelayedVerdict Walk(ReadOnlySpan<byte> frames, int maxMessageSize, Action<WsOpcode, ReadOnlyMemory<byte>>? deliver)
    {
        using var decoder = new WsFrameDecoder(WsRole.Client, inflater: null, maxMessageSize);
        var rest = frames;
        while (true)
        {
            var result = decoder.Read(rest, out var consumed);
            rest = rest[consumed..];
            switch (result)
            {
                case WsDecodeResult.NeedMoreData:
                    return rest.IsEmpty && decoder.IsBetweenMessages ? RelayedVerdict.Accepted : RelayedVerdict.RefusedFrames;
                case WsDecodeResult.Message:
                    deliver?.Invoke(decoder.Opcode, decoder.Payload);
                    break;
                case WsDecodeResult.Error when decoder.ErrorStatus == WsCloseStatus.InvalidPayload:
                    return RelayedVerdict.RefusedText;
                default:
                    // A close, ping or pong is per connection; another failure is not a frame this library writes.
                    return RelayedVerdict.RefusedFrames;
            }
        }
    }
}
