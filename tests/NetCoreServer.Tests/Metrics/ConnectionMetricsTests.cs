using System;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Metrics;

/// <summary>
/// What an operator reads from the NetCoreServer meter of a stream server (TCP, TLS, Unix socket), through a
/// MeterListener on the host's own IMeterFactory: connections coming and going, refusals with their reason, bytes,
/// TLS handshakes.
/// </summary>
[TestFixtureSource(nameof(Transports))]
public sealed class ConnectionMetricsTests
{
    private readonly TestTransport _transport;

    public ConnectionMetricsTests(TestTransport transport) => _transport = transport;

    public static readonly object[] Transports = [TestTransport.Tcp, TestTransport.Ssl, TestTransport.Uds];

    private TestServer StartServer(MetricRecorder metrics, Action<TestServer>? configure = null)
    {
        var server = new TestServer(_transport, IPAddress.Loopback);
        ((StreamServer)server.Inner).OptionMeterFactory = metrics;
        configure?.Invoke(server);
        Assert.That(server.Start(), Is.True, "server starts");
        return server;
    }

    private async Task<TestClient> Connect(TestServer server)
    {
        var client = new TestClient(_transport, server);
        Assert.That(await Wait.For(client.ConnectAndWaitAsync(), "client connect"), Is.True, "client connected");
        return client;
    }

    [Test]
    public async Task AConnectionShowsInActiveConnectionsAndLeavesItWithItsDuration()
    {
        using var metrics = new MetricRecorder();
        using var server = StartServer(metrics);
        using var client = await Connect(server);
        await Wait.For(server.Connected.Reaches(1), "server OnConnected");

        Assert.That(metrics.Observe("netcoreserver.active_connections"), Is.EqualTo(1), "the connection is active");
        Assert.That(metrics.Sum("netcoreserver.accepted_connections"), Is.EqualTo(1), "one accepted connection");
        var accepted = metrics.Of("netcoreserver.accepted_connections").Single();
        Assert.That(accepted.Tag("network.transport"), Is.EqualTo(_transport.IsUnix ? "unix" : "tcp"));
        if (_transport.IsUnix)
            Assert.That(accepted.Tag("server.port"), Is.Null, "a socket file has no port");
        else
            Assert.That(accepted.Tag("server.port"), Is.EqualTo(server.BoundPort.ToString()), "tagged with the bound port, not 0");

        // The server counts sent bytes just before its OnSent: the client can have the echo first.
        var echoed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        server.OnSessionHook = (_, hook) =>
        {
            if (hook == "OnSent")
                echoed.TrySetResult();
        };
        client.ReceiveAsync();
        client.SendAsync("hello");
        await Wait.For(client.Received.Reaches(5), "echo of hello");
        await Wait.For(echoed.Task, "the server's OnSent for the echo");
        Assert.That(metrics.Observe("netcoreserver.bytes_received"), Is.EqualTo(5), "bytes received by the server");
        Assert.That(metrics.Observe("netcoreserver.bytes_sent"), Is.EqualTo(5), "bytes echoed by the server");

        var ended = metrics.Next("netcoreserver.connection.duration");
        await client.DisconnectAndWaitAsync();
        var duration = await Wait.For(ended, "connection.duration recorded when the session ends");
        Assert.That(duration.Value, Is.GreaterThan(0));
        Assert.That(duration.Tag("netcoreserver.disconnect.reason"), Is.EqualTo("peer_closed"));
        Assert.That(metrics.Observe("netcoreserver.active_connections"), Is.EqualTo(0), "the connection left");
    }

    [Test]
    public async Task ARefusedConnectionIsCountedWithItsReason()
    {
        using var metrics = new MetricRecorder();
        using var server = StartServer(metrics, s => s.Options.OptionMaxSessions = 1);
        using var first = await Connect(server);
        await Wait.For(server.Connected.Reaches(1), "first session connected");

        using var second = await RawPeer.ConnectAsync(server.Endpoint);
        var refused = await Wait.For(metrics.Next("netcoreserver.refused_connections"), "the second connection refused");

        Assert.That(refused.Tag("netcoreserver.refusal.reason"), Is.EqualTo("server_full"));
        Assert.That(metrics.Sum("netcoreserver.accepted_connections"), Is.EqualTo(1), "a refused connection is not an accepted one");
        Assert.That(metrics.Observe("netcoreserver.active_connections"), Is.EqualTo(1));
    }

    [Test]
    public async Task AMulticastASlowConsumerSkipsIsCountedWithItsEpisode()
    {
        using var metrics = new MetricRecorder();
        using var server = StartServer(metrics, s => s.SessionSendLimit = 1024);
        using var client = await Connect(server);
        await Wait.For(server.Connected.Reaches(1), "server OnConnected");

        Assert.That(server.Multicast(new byte[4096]), Is.True, "a multicast over the session's whole send limit");

        Assert.That(metrics.Observe("netcoreserver.multicast.skipped"), Is.EqualTo(1), "the session skipped it");
        Assert.That(metrics.Observe("netcoreserver.slow_consumer.episodes"), Is.EqualTo(1), "one slow-consumer episode");
        Assert.That(metrics.Observe("netcoreserver.queued_send_bytes"), Is.EqualTo(0), "nothing of it was queued");
    }

    [Test]
    public async Task ATlsHandshakeIsTimedWithItsVersionAndAFailedOneIsCounted()
    {
        if (!_transport.Secure)
            Assert.Ignore("TLS only");
        using var metrics = new MetricRecorder();
        using var server = StartServer(metrics);
        using var client = await Connect(server);

        var handshake = await Wait.For(metrics.Next("netcoreserver.tls.handshake.duration"), "handshake duration");
        Assert.That(handshake.Tag("tls.protocol.version"), Is.AnyOf("1.2", "1.3"));
        Assert.That(handshake.Value, Is.GreaterThan(0));

        var failed = metrics.Next("netcoreserver.tls.handshake.failures");
        using (var garbage = await RawPeer.ConnectAsync(server.Endpoint))
        {
            garbage.Socket.Send("GET / HTTP/1.1\r\n\r\n"u8);
            await Wait.For(failed, "a plaintext peer's handshake counted as failed");
        }
        Assert.That(metrics.Sum("netcoreserver.tls.handshake.failures"), Is.EqualTo(1));
        Assert.That(metrics.Of("netcoreserver.tls.handshake.duration").Count(r => r.Tag("error.type") == "handshake_failed"), Is.EqualTo(1), "the failure is timed too, with error.type");
    }
}
