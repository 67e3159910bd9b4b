namespace NetCoreServer.Engine;

/// <summary>Life of one connection. Moves forward only, changed with Interlocked.CompareExchange.</summary>
internal enum SessionState
{
    /// <summary>Created, hooks not yet run.</summary>
    Connecting = 0,

    /// <summary>Data flows both ways.</summary>
    Connected = 1,

    /// <summary>No new sends accepted; queued data drains, then the socket closes.</summary>
    Disconnecting = 2,

    /// <summary>Socket closed, loops finished, <c>OnDisconnected</c> raised.</summary>
    Disconnected = 3,
}
