using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace NetCoreServer.Hosting;

/// <summary>Healthy while the server accepts connections; unhealthy before it started, while it drains and after.</summary>
/// <typeparam name="TServer">The server type.</typeparam>
/// <typeparam name="TSession">Its session type.</typeparam>
internal sealed class SessionServerHealthCheck<TServer, TSession>(TServer server) : IHealthCheck
    where TServer : StreamServer<TSession>
    where TSession : StreamSession
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        var data = new Dictionary<string, object> { ["endpoint"] = server.Endpoint.ToString() ?? "", ["sessions"] = server.ConnectedSessions };
        return Task.FromResult(server.IsAccepting
            ? HealthCheckResult.Healthy("accepting connections", data)
            : new HealthCheckResult(context.Registration.FailureStatus, "not accepting connections", data: data));
    }
}
