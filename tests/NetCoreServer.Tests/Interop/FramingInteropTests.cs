using System;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Interop;

/// <summary>Framing against peers nobody here wrote: socat for lines, a Node.js client (its own net module) for length prefixes.</summary>
[TestFixture]
public sealed class FramingInteropTests
{
    [Test]
    public async Task SocatGetsEveryLineEchoedWhole()
    {
        var socat = ExternalTool.Require("socat");
        using var server = new EchoServer(MessageFraming.Lines(4096));
        Assert.That(server.Start(), Is.True);
        var lines = Enumerable.Range(0, 20_000).Select(i => $"line {i} " + new string((char)('a' + i % 26), i % 300)).ToList();
        var input = Encoding.UTF8.GetBytes(string.Join("\n", lines) + "\n");

        // socat writes stdin as it reads it: the lines reach the server cut wherever its reads fall.
        var result = await ExternalTool.Run(socat, ["-t", "5", "-", $"TCP:127.0.0.1:{((IPEndPoint)server.Endpoint).Port}"], TimeSpan.FromSeconds(30), input);

        Assert.That(result.ExitCode, Is.EqualTo(0), result.Error);
        Assert.That(result.Output.Split('\n')[..^1], Is.EqualTo(lines), "every line echoed whole, in order, with its line end");
        Assert.That(server.Messages, Is.EqualTo(lines.Count));
    }

    [Test]
    public async Task ANodeClientExchangesLengthPrefixedMessagesSplitAnyWay()
    {
        var (node, directory) = NodePeers.Require();
        using var server = new EchoServer(MessageFraming.LengthPrefixed(4, maxMessageSize: 4096));
        Assert.That(server.Start(), Is.True);
        var port = ((IPEndPoint)server.Endpoint).Port.ToString(System.Globalization.CultureInfo.InvariantCulture);

        var result = await ExternalTool.Run(node, [System.IO.Path.Combine(directory, "length-prefixed-client.js"), "--port", port, "--count", "2000", "--max", "4096"], TimeSpan.FromSeconds(60));

        Assert.That(result.ExitCode, Is.EqualTo(0), result.Output + result.Error);
        var report = JsonDocument.Parse(result.Output).RootElement;
        Assert.That(report.GetProperty("received").GetInt32(), Is.EqualTo(2000));
        Assert.That(report.GetProperty("mismatches").GetInt32(), Is.Zero);
        Assert.That(server.Messages, Is.EqualTo(2000));
    }

    /// <summary>Echoes every whole message back framed, counting them.</summary>
    private sealed class EchoServer : TcpServer
    {
        private int _messages;

        public EchoServer(MessageFraming framing)
            : base(IPAddress.Loopback, 0) => Framing = framing;

        public int Messages => System.Threading.Volatile.Read(ref _messages);

        protected override TcpSession CreateSession() => new Session(this);

        private sealed class Session(EchoServer server) : TcpSession(server)
        {
            protected override void OnReceivedMessage(ReadOnlySpan<byte> message)
            {
                System.Threading.Interlocked.Increment(ref server._messages);
                SendMessageAsync(message);
            }

            protected override void OnError(SocketError error) => TestContext.Progress.WriteLine($"echo session error {error}");
        }
    }
}
