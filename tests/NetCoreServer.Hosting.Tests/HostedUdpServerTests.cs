using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace NetCoreServer.Hosting.Tests;

/// <summary>A UDP server in the generic host: built from configuration, started with the host, stopped when it stops.</summary>
[TestFixture]
public sealed class HostedUdpServerTests
{
    /// <summary>Every datagram goes back to its sender.</summary>
    public sealed class EchoServer : UdpServer
    {
        public EchoServer(string address, int port)
            : base(address, port) => OptionContinuousReceive = true;

        protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size) => SendAsync(endpoint, buffer, offset, size);
    }

    private static IHost Build(Dictionary<string, string?> settings)
    {
        var builder = Host.CreateApplicationBuilder();
        builder.Configuration.AddInMemoryCollection(settings);
        builder.Services.AddUdpServer(builder.Configuration.GetSection("Echo"), (_, options) => new EchoServer(options.Address, options.Port));
        builder.Services.AddHealthChecks().AddUdpServerCheck<EchoServer>();
        return builder.Build();
    }

    [Test]
    public async Task AUdpServerIsBuiltFromItsSectionStartedWithTheHostAndStoppedWithIt()
    {
        using var host = Build(new() { ["Echo:Address"] = "127.0.0.1", ["Echo:Port"] = "0", ["Echo:ReceiveBufferSize"] = "262144" });
        var server = host.Services.GetRequiredService<EchoServer>();
        var health = host.Services.GetRequiredService<HealthCheckService>();
        Assert.That(server.IsStarted, Is.False, "not before the host starts");
        Assert.That((await health.CheckHealthAsync()).Status, Is.EqualTo(HealthStatus.Unhealthy), "before the host started it");

        await host.StartAsync();

        Assert.That(server.IsStarted, Is.True);
        Assert.That(server.OptionReceiveBufferSize, Is.EqualTo(262144), "the kernel buffer from the section");
        Assert.That(server.OptionMeterFactory, Is.SameAs(host.Services.GetRequiredService<IMeterFactory>()), "metrics through the host's meter factory");
        Assert.That((await health.CheckHealthAsync()).Status, Is.EqualTo(HealthStatus.Healthy));
        using var client = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
        client.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        await client.SendToAsync(Encoding.ASCII.GetBytes("ping"), SocketFlags.None, server.Endpoint);
        var buffer = new byte[64];
        var echoed = await Wait.For(client.ReceiveAsync(buffer, SocketFlags.None), "the echo");
        Assert.That(Encoding.ASCII.GetString(buffer, 0, echoed), Is.EqualTo("ping"));

        await Wait.For(host.StopAsync(), "the host stopped");

        Assert.That(server.IsStarted, Is.False);
        Assert.That((await health.CheckHealthAsync()).Status, Is.EqualTo(HealthStatus.Unhealthy), "after it stopped");
    }

    [Test]
    public void APortInUseFailsTheHostsStart()
    {
        using var taken = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
        taken.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        using var host = Build(new() { ["Echo:Port"] = ((IPEndPoint)taken.LocalEndPoint!).Port.ToString() });

        Assert.That(() => host.StartAsync(), Throws.InstanceOf<SocketException>(), "the bind error reaches the host");
    }
}
