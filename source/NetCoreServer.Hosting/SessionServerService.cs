using System;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace NetCoreServer.Hosting;

/// <summary>
/// Starts one server with the host and drains it when the host stops (SIGTERM, Ctrl+C, <c>StopAsync</c>): the drain
/// (<c>StopAsync</c> of the server) gets the host's shutdown token, so what is left when the host's shutdown timeout
/// ends is closed at once.
/// </summary>
/// <typeparam name="TServer">The server type.</typeparam>
/// <typeparam name="TSession">Its session type.</typeparam>
internal sealed class SessionServerService<TServer, TSession>(TServer server, string name, ILogger<TServer> logger) : IHostedService
    where TServer : StreamServer<TSession>
    where TSession : StreamSession
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        HostedStart.Run(() => server.Start(), () => server.Endpoint, logger, "Session server", name);
        return Task.CompletedTask;
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        logger.LogInformation(HostingEvents.Draining, "Session server {Name} draining {Sessions} sessions", name, server.ConnectedSessions);
        await server.StopAsync(cancellationToken).ConfigureAwait(false);
        logger.LogInformation(HostingEvents.Stopped, "Session server {Name} stopped{Cut}", name, cancellationToken.IsCancellationRequested ? " (shutdown timeout: the rest was closed)" : "");
    }
}
