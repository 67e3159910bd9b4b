using System;
using System.Net;
using Microsoft.Extensions.Logging;

namespace NetCoreServer.Hosting;

/// <summary>What every hosted server does as the host starts: start it, and log where it listens or why it could not.</summary>
internal static class HostedStart
{
    /// <summary>Runs <paramref name="start"/>; logs the failure (and rethrows, failing the host's start) or the endpoint.</summary>
    public static void Run(Action start, Func<EndPoint> endpoint, ILogger logger, string kind, string name)
    {
        try
        {
            start();
        }
        catch (Exception exception)
        {
            logger.LogError(HostingEvents.StartFailed, exception, "{Kind} {Name} could not start on {Endpoint}", kind, name, endpoint());
            throw;
        }
        logger.LogInformation(HostingEvents.Started, "{Kind} {Name} listening on {Endpoint}", kind, name, endpoint());
    }
}
