namespace NetCoreServer.Udp;

/// <summary>
/// Where a test may pause a <see cref="DatagramEngine"/> through <see cref="DatagramEngine.TestProbe"/>, to widen a race
/// that no hook reaches: between the receive loop's last check that the engine is open and its parking, no user code runs.
/// </summary>
internal enum EngineTestPoint
{
    /// <summary>On the receive loop, after a delivery found the engine still open, just before the loop parks.</summary>
    ReceiverParking,

    /// <summary>On the closing thread, after Close has tried to wake both loops and before it waits for them.</summary>
    LoopsWoken,
}
