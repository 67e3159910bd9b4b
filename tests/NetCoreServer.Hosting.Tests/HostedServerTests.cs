using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace NetCoreServer.Hosting.Tests;

/// <summary>A server in the generic host: built from configuration, started with the host, drained when it stops.</summary>
[TestFixture]
public sealed class HostedServerTests
{
    private const int Queued = 1024 * 1024;

    /// <summary>Each session queues <see cref="Queued"/> bytes when it connects.</summary>
    public sealed class GreetingServer(string address, int port) : TcpServer(address, port)
    {
        public readonly TaskCompletionSource Connected = new(TaskCreationOptions.RunContinuationsAsynchronously);

        protected override TcpSession CreateSession() => new GreetingSession(this);

        protected override void OnConnected(TcpSession session) => Connected.TrySetResult();
    }

    private sealed class GreetingSession(TcpServer server) : TcpSession(server)
    {
        protected override void OnConnected() => SendAsync(new byte[Queued]);
    }

    private static IHost Build(Dictionary<string, string?> settings)
    {
        var builder = Host.CreateApplicationBuilder();
        builder.Configuration.AddInMemoryCollection(settings);
        builder.Services.AddSessionServer<GreetingServer, TcpSession>(builder.Configuration.GetSection("Greeting"), (_, options) => new GreetingServer(options.Address, options.Port));
        builder.Services.AddHealthChecks().AddSessionServerCheck<GreetingServer, TcpSession>();
        return builder.Build();
    }

    [Test]
    public async Task AServerIsBuiltFromItsSectionStartedWithTheHostAndDrainedWhenItStops()
    {
        using var host = Build(new() { ["Greeting:Address"] = "127.0.0.1", ["Greeting:Port"] = "0", ["Greeting:MaxSessions"] = "7", ["Greeting:IdleTimeout"] = "00:02:00" });
        var server = host.Services.GetRequiredService<GreetingServer>();
        Assert.That(server.IsStarted, Is.False, "not before the host starts");

        await host.StartAsync();

        Assert.That(server.IsStarted, Is.True);
        Assert.That(server.OptionMaxSessions, Is.EqualTo(7), "limits from the section");
        Assert.That(server.OptionIdleTimeout, Is.EqualTo(TimeSpan.FromMinutes(2)));
        Assert.That(server.OptionMeterFactory, Is.SameAs(host.Services.GetRequiredService<IMeterFactory>()), "metrics through the host's meter factory");
        using var client = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await Wait.For(client.ConnectAsync((IPEndPoint)server.Endpoint), "connect");
        await Wait.For(server.Connected.Task, "the session connected");

        var stopping = host.StopAsync();

        var buffer = new byte[64 * 1024];
        long total = 0;
        while (await Wait.For(client.ReceiveAsync(buffer, SocketFlags.None), "data or the end of the stream") is var read and > 0)
            total += read;
        Assert.That(total, Is.EqualTo(Queued), "what the session queued is delivered before the close");
        client.Close();
        await Wait.For(stopping, "the host stopped after the drain");
        Assert.That(server.IsStarted, Is.False);
    }

    [Test]
    public async Task TheHealthCheckSaysWhetherTheServerIsAccepting()
    {
        using var host = Build(new() { ["Greeting:Port"] = "0" });
        var health = host.Services.GetRequiredService<HealthCheckService>();
        Assert.That((await health.CheckHealthAsync()).Status, Is.EqualTo(HealthStatus.Unhealthy), "before the host started it");

        await host.StartAsync();
        var running = await health.CheckHealthAsync();
        Assert.That(running.Status, Is.EqualTo(HealthStatus.Healthy));
        Assert.That(running.Entries[nameof(GreetingServer)].Data["endpoint"], Is.EqualTo(host.Services.GetRequiredService<GreetingServer>().Endpoint.ToString()));

        await host.StopAsync();
        Assert.That((await health.CheckHealthAsync()).Status, Is.EqualTo(HealthStatus.Unhealthy), "after the drain");
    }

    [Test]
    public void APortInUseFailsTheHostsStart()
    {
        using var taken = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        taken.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        taken.Listen();
        using var host = Build(new() { ["Greeting:Port"] = ((IPEndPoint)taken.LocalEndPoint!).Port.ToString() });

        Assert.That(() => host.StartAsync(), Throws.InstanceOf<SocketException>(), "the bind error reaches the host");
    }
}
