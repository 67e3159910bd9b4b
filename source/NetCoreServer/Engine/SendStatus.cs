namespace NetCoreServer.Engine;

/// <summary>Outcome of offering data to a connection's send queue.</summary>
internal enum SendStatus
{
    Accepted,
    NotConnected,
    LimitReached,
}
