using System;
using System.Net;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using NetCoreServer;
using NetCoreServer.Examples;
using NetCoreServer.Hosting;
using OpenTelemetry.Metrics;

// A WebSocket chat on the generic host: the endpoint and limits come from appsettings.json's "Chat" section (an
// environment variable overrides it: Chat__Port=9000), metrics go through the host's meter factory, and SIGTERM or
// Ctrl+C drains it: no new connections, every client gets close 1001, what was queued is delivered first. With
// Metrics:PrometheusPort set, OpenTelemetry's Prometheus exporter serves the library's instruments at
// http://PrometheusHost:PrometheusPort/metrics.
var usage = new ExampleUsage("HostedChat", "a WebSocket chat server on the .NET generic host", "[--Chat:Port=PORT] [--Chat:Address=ADDRESS]",
    "The \"Chat\" section of appsettings.json configures it; --Section:Key=value or Chat__Port=PORT in the environment",
    "overrides a setting. SIGTERM or Ctrl+C drains it: every client gets close 1001 after what was queued.",
    "--Metrics:PrometheusPort=9464 serves the metrics to Prometheus at http://127.0.0.1:9464/metrics (0: off).");
if (ExampleUsage.AsksForHelp(args))
    return usage.Help();
// Only configuration overrides: a positional argument is a mistake, not a setting.
foreach (var arg in args)
{
    if (!arg.StartsWith("--", StringComparison.Ordinal) || !arg.Contains('='))
        return usage.Error($"'{arg}' is not a --Section:Key=value setting");
}

var builder = Host.CreateApplicationBuilder(args);
builder.Services.Configure<HostOptions>(builder.Configuration.GetSection("HostOptions"));
builder.Services.AddSessionServer<ChatServer, TcpSession>(builder.Configuration.GetSection("Chat"), (_, options) => new ChatServer(options.Address, options.Port));
builder.Services.AddHealthChecks().AddSessionServerCheck<ChatServer, TcpSession>();
if (builder.Configuration.GetValue<int>("Metrics:PrometheusPort") is > 0 and var prometheusPort)
{
    builder.Services.AddOpenTelemetry().WithMetrics(metrics => metrics
        .AddMeter(ServerMeter.Name)
        .AddPrometheusHttpListener(options =>
        {
            options.Host = builder.Configuration["Metrics:PrometheusHost"] ?? "127.0.0.1";
            options.Port = prometheusPort;
        }));
}
await builder.Build().RunAsync();
return 0;

/// <summary>Every text message goes to every client.</summary>
internal sealed class ChatServer(string address, int port) : WsServer(IPAddress.Parse(address), port)
{
    protected override TcpSession CreateSession() => new ChatSession(this);
}

internal sealed class ChatSession(WsServer server) : WsSession(server)
{
    public override void OnWsReceived(byte[] buffer, long offset, long size)
        => ((WsServer)Server).MulticastText(buffer.AsSpan((int)offset, (int)size));
}
