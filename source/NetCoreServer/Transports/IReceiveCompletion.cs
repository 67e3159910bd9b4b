namespace NetCoreServer.Transports;

/// <summary>
/// Told when a receive started with <see cref="IStreamTransport.TryReceive"/> completes later: the engine's receive loop
/// waits this way, as a plain callback, so that an idle connection holds no task or state machine while it waits.
/// </summary>
internal interface IReceiveCompletion
{
    /// <summary>The pending receive completed; runs on the thread that completed it.</summary>
    void ReceiveCompleted(IoResult result);
}
