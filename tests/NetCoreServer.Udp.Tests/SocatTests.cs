using System;
using System.Diagnostics;
using System.Linq;
using System.Net;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Udp.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests;

/// <summary>socat, a UDP peer nobody here wrote, against our server and our client.</summary>
[TestFixture]
public sealed class SocatTests
{
    [Test]
    public async Task SocatGetsTheEchoOfItsDatagramFromOurServer()
    {
        var socat = ExternalTool.Require("socat");
        using var server = new TestUdpServer(IPAddress.Loopback);
        server.Start();

        // socat sends stdin as one datagram, prints what comes back, and exits 2 s after stdin ends.
        var (exit, output, errors) = await ExternalTool.Run(socat, ["-t", "2", "-", $"UDP:127.0.0.1:{server.BoundPort}"],
            TimeSpan.FromSeconds(30), "hello from socat\n"u8.ToArray());

        Assert.That(exit, Is.EqualTo(0), $"socat exit code; stderr: {errors}");
        Assert.That(output, Is.EqualTo("hello from socat\n"), "echo seen by socat");
        Assert.That(server.DatagramsReceived, Is.EqualTo(1));
        Assert.That(Encoding.UTF8.GetString(server.Datagrams.ToArray()[0]), Is.EqualTo("hello from socat\n"));
    }

    [Test]
    public async Task OurClientTalksToASocatEchoServer()
    {
        var socat = ExternalTool.Require("socat");
        var port = Loopback.FreePort();
        var info = new ProcessStartInfo(socat)
        {
            UseShellExecute = false,
            RedirectStandardError = true,
        };
        // One child per datagram echoes it through cat to the sender; -T ends an idle socat.
        foreach (var argument in new[] { "-T", "20", $"UDP-RECVFROM:{port},bind=127.0.0.1,fork", "EXEC:cat" })
            info.ArgumentList.Add(argument);
        using var process = Process.Start(info)!;
        try
        {
            using var client = new TestUdpClient(new IPEndPoint(IPAddress.Loopback, port), continuous: true);
            Assert.That(client.Connect(), Is.True);
            // socat needs a moment to bind; resend the first datagram for at most 5 s.
            var first = client.WhenReceived("ping\n");
            for (var attempt = 0; attempt < 50 && !first.IsCompleted; attempt++)
            {
                client.SendAsync("ping\n");
                await Wait.Within(first, TimeSpan.FromMilliseconds(100));
            }
            await Wait.For(first, "socat's echo of the first datagram");

            for (var i = 0; i < 5; i++)
            {
                Assert.That(client.SendAsync($"message {i}\n"), Is.True);
                await Wait.For(client.WhenReceived($"message {i}\n"), $"socat's echo of message {i}");
            }
            // Late echoes of the retried first datagram may interleave; the messages themselves come back in order.
            var texts = client.Datagrams.ToArray().Select(d => Encoding.UTF8.GetString(d)).Where(t => t.StartsWith("message", StringComparison.Ordinal));
            Assert.That(texts, Is.EqualTo(new[] { "message 0\n", "message 1\n", "message 2\n", "message 3\n", "message 4\n" }));
            Assert.That(client.Errors, Is.Empty);
        }
        finally
        {
            if (!process.HasExited)
                process.Kill(entireProcessTree: true);
        }
    }
}
