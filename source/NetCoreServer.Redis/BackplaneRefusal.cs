namespace NetCoreServer.Redis;

/// <summary>Why a node refused a frame from the channel; each is counted (<see cref="RedisBackplane.RefusedFor"/>).</summary>
public enum BackplaneRefusal
{
    /// <summary>Not a backplane frame this version reads: cut short, an unknown version or target, a bad address.</summary>
    Malformed = 0,

    /// <summary>
    /// A kind this node never takes: a value no node publishes, or any kind on an HTTP server that is not a WebSocket
    /// server (<see cref="RelayedVerdict.RefusedKind"/>).
    /// </summary>
    Kind = 1,

    /// <summary>Text that is not valid UTF-8 (<see cref="RelayedVerdict.RefusedText"/>).</summary>
    InvalidText = 2,

    /// <summary>
    /// Raw bytes on a WebSocket server that are not whole data frames: a close, ping or pong frame, a cut frame
    /// (<see cref="RelayedVerdict.RefusedFrames"/>).
    /// </summary>
    InvalidFrames = 3,

    /// <summary>Unsigned while this node has a secret and <see cref="RedisBackplaneOptions.AcceptUnsignedFrames"/> is false.</summary>
    Unsigned = 4,

    /// <summary>Signed with a secret this node does not accept, or a MAC that does not match the frame.</summary>
    Signature = 5,

    /// <summary>
    /// Correctly signed but seen before (its sequence number is not after the last one of its node) or older than
    /// <see cref="RedisBackplaneOptions.MaxFrameAge"/>: a replay.
    /// </summary>
    Replayed = 6,
}
