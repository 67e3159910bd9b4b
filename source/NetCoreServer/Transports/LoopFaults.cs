using System;

namespace NetCoreServer.Transports;

/// <summary>
/// Where an event loop reports what it caught instead of dying: the public <see cref="EventLoops.Error"/> subscribes
/// here, so the loops (a transport) need nothing from the public facade above them.
/// </summary>
internal static class LoopFaults
{
    /// <summary>The handlers of <see cref="EventLoops.Error"/>.</summary>
    public static event Action<Exception>? Raised;

    /// <summary>Raises <see cref="Raised"/>; a handler that throws does not reach the loop.</summary>
    public static void Report(Exception exception)
    {
        var handlers = Raised;
        if (handlers == null)
            return;
        foreach (var handler in handlers.GetInvocationList())
        {
            try
            {
                ((Action<Exception>)handler)(exception);
            }
            catch (Exception)
            {
                // A diagnostics handler must not end the loop it reports on.
            }
        }
    }
}
