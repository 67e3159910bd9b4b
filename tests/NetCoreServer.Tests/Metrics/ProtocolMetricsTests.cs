using System;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Net.WebSockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Metrics;

/// <summary>
/// The protocol instruments as an operator reads them, driven by peers nobody here wrote (.NET's HttpClient and
/// ClientWebSocket, a plain UDP socket): HTTP requests with their status codes, WebSocket upgrades and messages, UDP datagrams.
/// </summary>
[TestFixture]
public sealed class ProtocolMetricsTests
{
    private sealed class AnsweringServer() : HttpServer(IPAddress.Loopback, 0)
    {
        protected override TcpSession CreateSession() => new AnsweringSession(this);
    }

    private sealed class AnsweringSession(HttpServer server) : HttpSession(server)
    {
        protected override void OnReceivedRequest(HttpRequest request)
            => SendResponseAsync(request.Url == "/ok" ? Response.MakeGetResponse("fine") : Response.MakeErrorResponse(404, "no such page"));
    }

    private sealed class EchoWsServer() : WsServer(IPAddress.Loopback, 0)
    {
        protected override TcpSession CreateSession() => new EchoWsSession(this);
    }

    private sealed class EchoWsSession(WsServer server) : WsSession(server)
    {
        public override void OnWsReceived(byte[] buffer, long offset, long size) => SendTextAsync(buffer.AsSpan((int)offset, (int)size));
    }

    private sealed class EchoUdpServer() : UdpServer(IPAddress.Loopback, 0)
    {
        public readonly TaskCompletionSource Sent = new(TaskCreationOptions.RunContinuationsAsynchronously);

        protected override void OnSent(EndPoint endpoint, long sent) => Sent.TrySetResult();

        protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size) => SendAsync(endpoint, buffer.AsSpan((int)offset, (int)size));
    }

    [Test]
    public async Task AnHttpRequestIsCountedWithItsStatusCode()
    {
        using var metrics = new MetricRecorder();
        using var server = new AnsweringServer { OptionMeterFactory = metrics };
        Assert.That(server.Start(), Is.True);
        var port = ((IPEndPoint)server.Endpoint).Port;
        using var http = new System.Net.Http.HttpClient { Timeout = Wait.Default };

        Assert.That((int)(await http.GetAsync($"http://127.0.0.1:{port}/ok")).StatusCode, Is.EqualTo(200));
        Assert.That((int)(await http.GetAsync($"http://127.0.0.1:{port}/missing")).StatusCode, Is.EqualTo(404));

        var ok = await Wait.For(metrics.Next("http.server.request.duration", r => r.Tag("http.response.status_code") == "200"), "the 200 recorded");
        var missing = await Wait.For(metrics.Next("http.server.request.duration", r => r.Tag("http.response.status_code") == "404"), "the 404 recorded");
        Assert.That(ok.Tag("http.request.method"), Is.EqualTo("GET"));
        Assert.That(ok.Tag("network.protocol.name"), Is.EqualTo("http"));
        Assert.That(missing.Value, Is.GreaterThan(0));
        Assert.That(metrics.Of("http.server.request.duration"), Has.Length.EqualTo(2), "one measurement per request");
    }

    [Test]
    public async Task AWebSocketUpgradeAndItsMessagesAreCounted()
    {
        using var metrics = new MetricRecorder();
        using var server = new EchoWsServer { OptionMeterFactory = metrics };
        Assert.That(server.Start(), Is.True);
        var port = ((IPEndPoint)server.Endpoint).Port;
        using var cancel = new CancellationTokenSource(Wait.Default);
        using var ws = new ClientWebSocket();

        await ws.ConnectAsync(new Uri($"ws://127.0.0.1:{port}/"), cancel.Token);
        await ws.SendAsync("hello"u8.ToArray(), WebSocketMessageType.Text, true, cancel.Token);
        var buffer = new byte[64];
        var echo = await ws.ReceiveAsync(buffer, cancel.Token);
        Assert.That(Encoding.UTF8.GetString(buffer, 0, echo.Count), Is.EqualTo("hello"));

        var upgrade = metrics.Of("netcoreserver.websocket.upgrades").Single();
        Assert.That(upgrade.Tag("netcoreserver.upgrade.result"), Is.EqualTo("accepted"));
        Assert.That(upgrade.Tag("network.protocol.name"), Is.EqualTo("websocket"));
        Assert.That(metrics.Sum("netcoreserver.websocket.messages_received"), Is.EqualTo(1));
        // Counted once the engine took the echo: the client can have it first.
        await Wait.For(metrics.Next("netcoreserver.websocket.messages_sent"), "the echo counted as sent");
        Assert.That(metrics.Sum("netcoreserver.websocket.messages_sent"), Is.EqualTo(1));
        Assert.That(metrics.Of("http.server.request.duration").Single().Tag("http.response.status_code"), Is.EqualTo("101"), "the upgrade request answered 101");

        var ended = metrics.Next("netcoreserver.connection.duration");
        await ws.CloseAsync(WebSocketCloseStatus.NormalClosure, "bye", cancel.Token);
        await Wait.For(ended, "the WebSocket connection's duration");
        Assert.That(metrics.Observe("netcoreserver.active_connections"), Is.EqualTo(0));
    }

    [Test]
    public async Task UdpDatagramsReceivedSentAndDroppedAreCounted()
    {
        using var metrics = new MetricRecorder();
        using var server = new EchoUdpServer { OptionMeterFactory = metrics, OptionContinuousReceive = true, OptionSendBufferLimit = 1024 };
        Assert.That(server.Start(), Is.True);
        var endpoint = (IPEndPoint)server.Endpoint;
        using var peer = new System.Net.Sockets.UdpClient(AddressFamily.InterNetwork);
        peer.Connect(endpoint);

        await peer.SendAsync("ping"u8.ToArray());
        var echo = await Wait.For(peer.ReceiveAsync(), "the echo");
        Assert.That(echo.Buffer, Has.Length.EqualTo(4));
        // Counted just before OnSent: the peer can have the echo first.
        await Wait.For(server.Sent.Task, "the server's OnSent for the echo");
        Assert.That(server.SendAsync(peer.Client.LocalEndPoint!, new byte[2048]), Is.False, "over the send limit");

        Assert.That(metrics.Observe("netcoreserver.udp.datagrams_received"), Is.EqualTo(1));
        Assert.That(metrics.Observe("netcoreserver.udp.datagrams_sent"), Is.EqualTo(1));
        Assert.That(metrics.Observe("netcoreserver.udp.datagrams_dropped"), Is.EqualTo(1));
        Assert.That(metrics.Observe("netcoreserver.bytes_received"), Is.EqualTo(4));
        Assert.That(metrics.Of("netcoreserver.udp.datagrams_received").Last().Tag("network.transport"), Is.EqualTo("udp"));
        Assert.That(metrics.Of("netcoreserver.active_connections"), Is.Empty, "UDP has no connections");

        server.Stop();
        Assert.That(() => metrics.Observe("netcoreserver.udp.datagrams_received"), Throws.InvalidOperationException, "a stopped server is no longer observed");
    }
}
