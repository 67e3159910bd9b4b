using System;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Udp.Tests.Support;

/// <summary>
/// Holds a receive loop between its last check that the engine is open and its parking until a close has tried to wake
/// the loops: the interleaving in which the close finds the loop not yet parked. No hook runs in that window, so the
/// engine's test probe (<see cref="DatagramEngine.TestProbe"/>) widens it.
/// </summary>
internal sealed class ParkingRace
{
    // Bounded, so that a broken engine cannot pin the loop's thread for ever.
    private static readonly TimeSpan s_holdLimit = TimeSpan.FromSeconds(10);

    private readonly TaskCompletionSource _parking = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly ManualResetEventSlim _closeTriedToWake = new();
    private int _held;

    /// <summary>Completes when the receive loop is held just before it parks.</summary>
    public Task Parking => _parking.Task;

    /// <summary>Installs the probe on an engine.</summary>
    public void Attach(DatagramEngine engine) => engine.TestProbe = Probe;

    private void Probe(EngineTestPoint point)
    {
        switch (point)
        {
            case EngineTestPoint.ReceiverParking when Interlocked.Exchange(ref _held, 1) == 0:
                _parking.TrySetResult();
                _closeTriedToWake.Wait(s_holdLimit);
                break;
            case EngineTestPoint.LoopsWoken:
                _closeTriedToWake.Set();
                break;
        }
    }
}
