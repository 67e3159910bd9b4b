using System;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace NetCoreServer.Hosting;

/// <summary>
/// Starts one UDP server with the host and stops it when the host stops. UDP has no connections to drain: its
/// <c>Stop</c> hands the datagrams <c>SendAsync</c> accepted to the socket first (bounded), then closes it.
/// </summary>
/// <typeparam name="TServer">The server type.</typeparam>
internal sealed class UdpServerService<TServer>(TServer server, string name, ILogger<TServer> logger) : IHostedService
    where TServer : UdpServer
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        HostedStart.Run(() => server.Start(), () => server.Endpoint, logger, "UDP server", name);
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        logger.LogInformation(HostingEvents.Draining, "UDP server {Name} sending what was queued", name);
        server.Stop();
        logger.LogInformation(HostingEvents.Stopped, "UDP server {Name} stopped", name);
        return Task.CompletedTask;
    }
}
