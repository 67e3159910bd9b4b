namespace NetCoreServer.Udp;

/// <summary>What became of a datagram offered to SendAsync.</summary>
internal enum EnqueueResult
{
    Accepted,

    /// <summary>The engine is closing or closed; the caller reports nothing.</summary>
    Closed,

    /// <summary>The send limit would have been passed; the caller raises OnError(NoBufferSpaceAvailable).</summary>
    OverLimit,
}
