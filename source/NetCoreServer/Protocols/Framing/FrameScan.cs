namespace NetCoreServer.Protocols.Framing;

/// <summary>What <see cref="MessageFraming.Next"/> found at the front of the received bytes.</summary>
internal enum FrameScan
{
    /// <summary>A whole message.</summary>
    Message,

    /// <summary>Not a whole message yet: the bytes stay until more arrive.</summary>
    NeedMore,

    /// <summary>A message larger than the framing's maximum.</summary>
    TooLarge,

    /// <summary>A length that cannot be (shorter than its own header).</summary>
    Invalid,
}
