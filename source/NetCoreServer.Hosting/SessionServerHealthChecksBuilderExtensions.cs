using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace NetCoreServer.Hosting;

/// <summary>Health checks of hosted session servers.</summary>
public static class SessionServerHealthChecksBuilderExtensions
{
    /// <summary>
    /// Adds a check that is healthy while the <typeparamref name="TServer"/> added by
    /// <see cref="SessionServerServiceCollectionExtensions.AddSessionServer{TServer, TSession}"/> accepts connections
    /// (unhealthy before the host started it, while it drains and after); its data are the endpoint and the session count.
    /// </summary>
    /// <typeparam name="TServer">The server type.</typeparam>
    /// <typeparam name="TSession">Its session type.</typeparam>
    /// <param name="builder">The host's health checks (<c>services.AddHealthChecks()</c>).</param>
    /// <param name="name">The check's name; the server type's name by default.</param>
    /// <returns><paramref name="builder"/>.</returns>
    public static IHealthChecksBuilder AddSessionServerCheck<TServer, TSession>(this IHealthChecksBuilder builder, string? name = null)
        where TServer : StreamServer<TSession>
        where TSession : StreamSession
        => builder.Add(new HealthCheckRegistration(
            name ?? typeof(TServer).Name,
            provider => new SessionServerHealthCheck<TServer, TSession>(provider.GetRequiredService<TServer>()),
            HealthStatus.Unhealthy,
            ["session-server"]));

    /// <summary>
    /// Adds a check that is healthy while the <typeparamref name="TServer"/> added by
    /// <see cref="SessionServerServiceCollectionExtensions.AddUdpServer{TServer}"/> is started (unhealthy before the host
    /// started it and after it stopped); its data are the endpoint and the datagrams received.
    /// </summary>
    /// <typeparam name="TServer">The UDP server type.</typeparam>
    /// <param name="builder">The host's health checks (<c>services.AddHealthChecks()</c>).</param>
    /// <param name="name">The check's name; the server type's name by default.</param>
    /// <returns><paramref name="builder"/>.</returns>
    public static IHealthChecksBuilder AddUdpServerCheck<TServer>(this IHealthChecksBuilder builder, string? name = null)
        where TServer : UdpServer
        => builder.Add(new HealthCheckRegistration(
            name ?? typeof(TServer).Name,
            provider => new UdpServerHealthCheck<TServer>(provider.GetRequiredService<TServer>()),
            HealthStatus.Unhealthy,
            ["session-server"]));
}
