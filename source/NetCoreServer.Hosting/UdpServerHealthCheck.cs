using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace NetCoreServer.Hosting;

/// <summary>Healthy while the UDP server is started (its socket bound and receiving); unhealthy before and after.</summary>
/// <typeparam name="TServer">The server type.</typeparam>
internal sealed class UdpServerHealthCheck<TServer>(TServer server) : IHealthCheck
    where TServer : UdpServer
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        var data = new Dictionary<string, object> { ["endpoint"] = server.Endpoint.ToString() ?? "", ["datagrams_received"] = server.DatagramsReceived };
        return Task.FromResult(server.IsStarted
            ? HealthCheckResult.Healthy("receiving datagrams", data)
            : new HealthCheckResult(context.Registration.FailureStatus, "not started", data: data));
    }
}
