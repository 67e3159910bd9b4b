using System;
using System.Linq;
using System.Net;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Interop;

/// <summary>socat, a TCP peer nobody here wrote, against our server and client.</summary>
[TestFixture]
public sealed class SocatTests
{
    [Test]
    public async Task SocatGetsEveryByteEchoedAndTheServerClosesAfterItsHalfClose()
    {
        var socat = ExternalTool.Require("socat");
        using var server = new TestServer(TestTransport.Tcp, IPAddress.Loopback);
        server.Start();
        var payload = Enumerable.Range(0, 300_000).Select(i => (byte)(i * 31)).ToArray();

        // socat half-closes after stdin ends; the session must still deliver the whole echo, then close.
        var result = await ExternalTool.Run(socat, ["-t", "5", "-", $"TCP:127.0.0.1:{server.BoundPort}"], TimeSpan.FromSeconds(30), payload);

        Assert.That(result.ExitCode, Is.EqualTo(0), "socat exit code");
        Assert.That(result.OutputBytes, Is.EqualTo(payload), "echo seen by socat");
        await Wait.For(server.Disconnected.Reaches(1), "session closed after socat's end of stream");
        Assert.That(server.LastSession!.DisconnectReason, Is.EqualTo(DisconnectReason.PeerClosed));
    }

    [Test]
    public async Task OurClientTalksToASocatEchoServer()
    {
        var socat = ExternalTool.Require("socat");
        int port;
        using (var probe = new System.Net.Sockets.TcpListener(IPAddress.Loopback, 0))
        {
            probe.Start();
            port = ((IPEndPoint)probe.LocalEndpoint).Port;
        }
        using var process = System.Diagnostics.Process.Start(new System.Diagnostics.ProcessStartInfo(socat, $"-T 20 TCP-LISTEN:{port},bind=127.0.0.1,reuseaddr PIPE")
        {
            UseShellExecute = false,
            RedirectStandardError = true,
        })!;
        try
        {
            using var unused = new TestServer(TestTransport.Tcp, IPAddress.Loopback);
            using var client = new TestClient(TestTransport.Tcp, unused, new IPEndPoint(IPAddress.Loopback, port));
            var connected = false;
            // socat needs a moment to bind; retry for at most 5 s.
            for (var attempt = 0; attempt < 50 && !connected; attempt++)
            {
                connected = await client.ConnectAndWaitAsync();
                if (!connected)
                    await Task.Delay(100);
            }
            Assert.That(connected, Is.True, "connected to socat");
            var message = Enumerable.Range(0, 100_000).Select(i => (byte)i).ToArray();
            Assert.That(client.SendAsync(message), Is.True);
            await Wait.For(client.Received.Reaches(message.Length), "socat echo");
            Assert.That(client.Data(), Is.EqualTo(message));
            Assert.That(client.Disconnect(), Is.True);
            await Wait.For(process.WaitForExitAsync(), "socat exits after our client closed");
        }
        finally
        {
            if (!process.HasExited)
                process.Kill();
        }
    }
}
