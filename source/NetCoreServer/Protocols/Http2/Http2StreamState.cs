namespace NetCoreServer.Protocols.Http2;

/// <summary>The states of a stream (RFC 9113 §5.1), as a server sees them; a server that never pushes never reserves.</summary>
internal enum Http2StreamState
{
    /// <summary>Not opened yet.</summary>
    Idle,

    /// <summary>Both sides may send.</summary>
    Open,

    /// <summary>This side sent END_STREAM; the peer may still send.</summary>
    HalfClosedLocal,

    /// <summary>The peer sent END_STREAM; this side may still send.</summary>
    HalfClosedRemote,

    /// <summary>Done: both sides ended it, or one reset it.</summary>
    Closed,
}
