using System;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// NetCoreServer's HttpClient drops whatever arrives in the same read as the 101 that upgrades a WsClient, so a frame
/// the server queues right after the upgrade must not leave in the 101's write (see docs/guides/migrating.md).
/// </summary>
[TestFixture]
public sealed class WsUpgradeWriteTests
{
    private sealed class GreetingSession(WsServer server) : WsSession(server)
    {
        public readonly TaskCompletionSource<long> FirstWrite = new(TaskCreationOptions.RunContinuationsAsynchronously);

        public override void OnWsConnected(HttpRequest request) => SendTextAsync("hi");

        protected override void OnSent(long sent, long pending) => FirstWrite.TrySetResult(sent);
    }

    private sealed class GreetingServer() : WsServer(IPAddress.Loopback, 0)
    {
        public readonly TaskCompletionSource<GreetingSession> Session = new(TaskCreationOptions.RunContinuationsAsynchronously);

        protected override TcpSession CreateSession()
        {
            var session = new GreetingSession(this);
            Session.TrySetResult(session);
            return session;
        }
    }

    [Test]
    public async Task The101GoesOutInAWriteOfItsOwnBeforeAFrameSentFromOnWsConnected()
    {
        using var server = new GreetingServer();
        Assert.That(server.Start(), Is.True);
        using var raw = new System.Net.Sockets.TcpClient();
        await raw.ConnectAsync(IPAddress.Loopback, ((IPEndPoint)server.Endpoint).Port);
        var stream = raw.GetStream();
        var upgrade = "GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
        await stream.WriteAsync(Encoding.ASCII.GetBytes(upgrade));

        // The 101 and the 4-byte "hi" frame, however the reads split them.
        var received = new byte[4096];
        var length = 0;
        int headEnd;
        using var cancel = new CancellationTokenSource(Wait.Default);
        while ((headEnd = Encoding.ASCII.GetString(received, 0, length).IndexOf("\r\n\r\n", StringComparison.Ordinal)) < 0 || length < headEnd + 4 + 4)
            length += await stream.ReadAsync(received.AsMemory(length), cancel.Token);
        var session = await Wait.For(server.Session.Task, "the session");

        Assert.That(Encoding.ASCII.GetString(received, 0, 12), Is.EqualTo("HTTP/1.1 101"));
        Assert.That(await Wait.For(session.FirstWrite.Task, "the first write"), Is.EqualTo(headEnd + 4), "the first write held the 101 and nothing after it");
    }
}
