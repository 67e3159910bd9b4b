namespace NetCoreServer.Engine;

/// <summary>
/// What the engine knows of the server its sessions belong to (<see cref="EngineOptions.Owner"/>): the one timer wheel
/// all of them share. The server class itself stays above the engine.
/// </summary>
internal interface IEngineOwner
{
    /// <summary>The wheel that times every connection of this owner.</summary>
    TimerWheel Timers { get; }
}
