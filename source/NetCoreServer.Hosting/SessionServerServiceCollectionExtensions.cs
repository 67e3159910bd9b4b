using System;
using System.Diagnostics.Metrics;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;

namespace NetCoreServer.Hosting;

/// <summary>Adds session servers (TCP, TLS, Unix socket, HTTP, WebSocket) and UDP servers to a generic host (<c>Host.CreateApplicationBuilder</c>).</summary>
public static class SessionServerServiceCollectionExtensions
{
    /// <summary>
    /// Adds a server built by <paramref name="factory"/> from the settings in <paramref name="configuration"/>
    /// (a section such as <c>builder.Configuration.GetSection("Chat")</c>, bound to <see cref="SessionServerOptions"/>),
    /// registered as a singleton of <typeparamref name="TServer"/>, started with the host and drained when it stops.
    /// The limits and timeouts of the settings are applied after the factory, and the server's metrics go through the
    /// host's <see cref="IMeterFactory"/>. Call it once per server type.
    /// </summary>
    /// <typeparam name="TServer">The server type (your subclass).</typeparam>
    /// <typeparam name="TSession">Its session type.</typeparam>
    /// <param name="services">The host's services.</param>
    /// <param name="configuration">The server's configuration section.</param>
    /// <param name="factory">Makes the server from the bound settings (endpoint, certificate).</param>
    /// <returns><paramref name="services"/>.</returns>
    public static IServiceCollection AddSessionServer<TServer, TSession>(this IServiceCollection services, IConfiguration configuration, Func<IServiceProvider, SessionServerOptions, TServer> factory)
        where TServer : StreamServer<TSession>
        where TSession : StreamSession
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configuration);
        ArgumentNullException.ThrowIfNull(factory);
        var name = NameOf<TServer>(configuration);
        services.AddSingleton(provider =>
        {
            var options = Bind(configuration);
            var server = factory(provider, options);
            Apply(options, server);
            server.OptionMeterFactory ??= provider.GetService<IMeterFactory>();
            return server;
        });
        services.AddHostedService(provider => new SessionServerService<TServer, TSession>(
            provider.GetRequiredService<TServer>(), name, provider.GetRequiredService<ILogger<TServer>>()));
        return services;
    }

    /// <summary>
    /// Adds a UDP server built by <paramref name="factory"/> from the settings in <paramref name="configuration"/> (bound
    /// to <see cref="SessionServerOptions"/>: <c>Address</c>, <c>Port</c>, and <c>ReceiveBufferSize</c>/<c>SendBufferSize</c>
    /// as the kernel's socket buffers), registered as a singleton of <typeparamref name="TServer"/>, started with the host
    /// and stopped when it stops (what <c>SendAsync</c> accepted is sent first). Its metrics go through the host's
    /// <see cref="IMeterFactory"/>. Call it once per server type.
    /// </summary>
    /// <typeparam name="TServer">The server type (your <see cref="UdpServer"/> subclass).</typeparam>
    /// <param name="services">The host's services.</param>
    /// <param name="configuration">The server's configuration section.</param>
    /// <param name="factory">Makes the server from the bound settings (its endpoint).</param>
    /// <returns><paramref name="services"/>.</returns>
    public static IServiceCollection AddUdpServer<TServer>(this IServiceCollection services, IConfiguration configuration, Func<IServiceProvider, SessionServerOptions, TServer> factory)
        where TServer : UdpServer
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configuration);
        ArgumentNullException.ThrowIfNull(factory);
        var name = NameOf<TServer>(configuration);
        services.AddSingleton(provider =>
        {
            var options = Bind(configuration);
            var server = factory(provider, options);
            if (options.ReceiveBufferSize is int receive)
                server.OptionReceiveBufferSize = receive;
            if (options.SendBufferSize is int send)
                server.OptionSendBufferSize = send;
            server.OptionMeterFactory ??= provider.GetService<IMeterFactory>();
            return server;
        });
        services.AddHostedService(provider => new UdpServerService<TServer>(
            provider.GetRequiredService<TServer>(), name, provider.GetRequiredService<ILogger<TServer>>()));
        return services;
    }

    // A server is named after its configuration section (its path), else its type.
    private static string NameOf<TServer>(IConfiguration configuration)
        => configuration is IConfigurationSection section ? section.Path : typeof(TServer).Name;

    private static SessionServerOptions Bind(IConfiguration configuration)
    {
        var options = new SessionServerOptions();
        configuration.Bind(options);
        return options;
    }

    private static void Apply<TSession>(SessionServerOptions options, StreamServer<TSession> server)
        where TSession : StreamSession
    {
        if (options.MaxSessions is int maxSessions)
            server.OptionMaxSessions = maxSessions;
        if (options.MaxSessionsPerAddress is int perAddress)
            server.OptionMaxSessionsPerAddress = perAddress;
        if (options.IdleTimeout is TimeSpan idle)
            server.OptionIdleTimeout = idle;
        if (options.ReceiveBufferSize is int receive)
            server.OptionReceiveBufferSize = receive;
        if (options.SendBufferSize is int send)
            server.OptionSendBufferSize = send;
        if (options.NoDelay is bool noDelay)
            server.OptionNoDelay = noDelay;
        if (options.EventLoops is int loops)
            server.OptionEventLoops = loops;
    }
}
