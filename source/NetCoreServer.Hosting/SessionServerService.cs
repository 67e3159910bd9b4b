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
    private static readonly EventId s_started = new(1, "SessionServerStarted");
    private static readonly EventId s_startFailed = new(2, "SessionServerStartFailed");
    private static readonly EventId s_draining = new(3, "SessionServerDraining");
    private static readonly EventId s_stopped = new(4, "SessionServerStopped");

    public Task StartAsync(CancellationToken cancellationToken)
    {
        try
        {
            server.Start();
        }
        catch (Exception exception)
        {
            logger.LogError(s_startFailed, exception, "Session server {Name} could not start on {Endpoint}", name, server.Endpoint);
            throw;
        }
        logger.LogInformation(s_started, "Session server {Name} listening on {Endpoint}", name, server.Endpoint);
        return Task.CompletedTask;
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        logger.LogInformation(s_draining, "Session server {Name} draining {Sessions} sessions", name, server.ConnectedSessions);
        await server.StopAsync(cancellationToken).ConfigureAwait(false);
        logger.LogInformation(s_stopped, "Session server {Name} stopped{Cut}", name, cancellationToken.IsCancellationRequested ? " (shutdown timeout: the rest was closed)" : "");
    }
}
