using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// The compat-shaped UDP classes over 127.0.0.1 with NetCoreServer's one-shot ReceiveAsync pattern. Unicast only:
/// nothing here joins a group or sends to a multicast address (multicast runs only inside a private network namespace,
/// in the UDP test project). The Multicast methods are exercised with a unicast loopback endpoint as their target.
/// </summary>
[TestFixture]
public sealed class UdpCompatibilityTests
{
    private static CompatUdpServer StartedServer(bool rearmFromReceived = false, bool echo = true)
    {
        var server = new CompatUdpServer(IPAddress.Loopback, 0) { Echo = echo, RearmFromReceived = rearmFromReceived };
        server.OptionDualMode = false;
        server.OptionReuseAddress = false;
        server.OptionExclusiveAddressUse = false;
        server.OptionReceiveBufferLimit = 65536;
        server.OptionReceiveBufferSize = 1 << 18;
        server.OptionSendBufferLimit = 1 << 20;
        server.OptionSendBufferSize = 1 << 18;
        Assert.That(server.Start(), Is.True, "Start returns true");
        return server;
    }

    private static CompatUdpClient ConnectedClient(int port, bool autoReceive = true)
    {
        var client = new CompatUdpClient(IPAddress.Loopback, port) { AutoReceive = autoReceive };
        client.OptionDualMode = false;
        client.OptionReuseAddress = false;
        client.OptionExclusiveAddressUse = false;
        client.OptionMulticast = false;
        client.OptionReceiveBufferLimit = 65536;
        client.OptionReceiveBufferSize = 1 << 18;
        client.OptionSendBufferLimit = 1 << 20;
        client.OptionSendBufferSize = 1 << 18;
        Assert.That(client.Connect(), Is.True, "Connect returns true");
        return client;
    }

    /// <summary>Sends one datagram with <paramref name="send"/> and waits for its echo before the next, so none can be lost to a full buffer.</summary>
    private static async Task EchoOne(CompatUdpClient client, List<string> expected, string text, Func<bool> send)
    {
        expected.Add(text);
        Assert.That(send(), Is.True, $"sent: {text}");
        await Wait.For(client.Probe.Logged("datagram", expected.Count), $"the echo of \"{text}\"");
    }

    [TestCase(false, TestName = "AnEchoWorksWithNetCoreServersOneShotReceiveAsync_ServerAsksForTheNextDatagramFromOnSent")]
    [TestCase(true, TestName = "AnEchoWorksWithNetCoreServersOneShotReceiveAsync_ServerAsksForTheNextDatagramFromOnReceived")]
    public async Task AnEchoWorksWithNetCoreServersOneShotReceiveAsync(bool rearmFromReceived)
    {
        using var server = StartedServer(rearmFromReceived);
        Assert.That(server.IsStarted, Is.True);
        using var client = ConnectedClient(server.BoundPort);
        Assert.That(client.IsConnected, Is.True);
        var to = server.Endpoint;
        var expected = new List<string>();

        await EchoOne(client, expected, "send(byte[])", () => client.Send(Encoding.UTF8.GetBytes("send(byte[])")) == 12);
        await EchoOne(client, expected, "send(byte[],offset,size)", () => client.Send(TcpCompatibilityTests.Padded("send(byte[],offset,size)"), 2, 24) == 24);
        await EchoOne(client, expected, "send(span<byte>)", () => client.Send("send(span<byte>)"u8) == 16);
        await EchoOne(client, expected, "send(string)", () => client.Send("send(string)") == 12);
        await EchoOne(client, expected, "send(span<char>)", () => client.Send("send(span<char>)".AsSpan()) == 16);
        await EchoOne(client, expected, "sendasync(byte[])", () => client.SendAsync(Encoding.UTF8.GetBytes("sendasync(byte[])")));
        await EchoOne(client, expected, "sendasync(byte[],offset,size)", () => client.SendAsync(TcpCompatibilityTests.Padded("sendasync(byte[],offset,size)"), 2, 29));
        await EchoOne(client, expected, "sendasync(span<byte>)", () => client.SendAsync("sendasync(span<byte>)"u8));
        await EchoOne(client, expected, "sendasync(string)", () => client.SendAsync("sendasync(string)"));
        await EchoOne(client, expected, "sendasync(span<char>)", () => client.SendAsync("sendasync(span<char>)".AsSpan()));
        await EchoOne(client, expected, "to:send(byte[])", () => client.Send(to, Encoding.UTF8.GetBytes("to:send(byte[])")) == 15);
        await EchoOne(client, expected, "to:send(byte[],offset,size)", () => client.Send(to, TcpCompatibilityTests.Padded("to:send(byte[],offset,size)"), 2, 27) == 27);
        await EchoOne(client, expected, "to:send(span<byte>)", () => client.Send(to, "to:send(span<byte>)"u8) == 19);
        await EchoOne(client, expected, "to:send(string)", () => client.Send(to, "to:send(string)") == 15);
        await EchoOne(client, expected, "to:send(span<char>)", () => client.Send(to, "to:send(span<char>)".AsSpan()) == 19);
        await EchoOne(client, expected, "to:sendasync(byte[])", () => client.SendAsync(to, Encoding.UTF8.GetBytes("to:sendasync(byte[])")));
        await EchoOne(client, expected, "to:sendasync(byte[],offset,size)", () => client.SendAsync(to, TcpCompatibilityTests.Padded("to:sendasync(byte[],offset,size)"), 2, 32));
        await EchoOne(client, expected, "to:sendasync(span<byte>)", () => client.SendAsync(to, "to:sendasync(span<byte>)"u8));
        await EchoOne(client, expected, "to:sendasync(string)", () => client.SendAsync(to, "to:sendasync(string)"));
        await EchoOne(client, expected, "to:sendasync(span<char>)", () => client.SendAsync(to, "to:sendasync(span<char>)".AsSpan()));

        Assert.That(client.Probe.Datagrams, Is.EqualTo(expected), "every datagram echoed, in order");
        Assert.That(server.Probe.Datagrams, Is.EqualTo(expected), "the server received each datagram once");
        var bytes = expected.Sum(text => (long)text.Length);
        Assert.That(client.DatagramsSent, Is.EqualTo(expected.Count));
        Assert.That(client.DatagramsReceived, Is.EqualTo(expected.Count));
        Assert.That(client.BytesSent, Is.EqualTo(bytes));
        Assert.That(client.BytesReceived, Is.EqualTo(bytes));
        Assert.That(server.DatagramsReceived, Is.EqualTo(expected.Count));
        Assert.That(server.BytesReceived, Is.EqualTo(bytes));

        Assert.That(client.Disconnect(), Is.True, "Disconnect returns true");
        Assert.That(client.IsConnected, Is.False);
        Assert.That(server.Stop(), Is.True, "Stop returns true");
        Assert.That(server.IsStarted, Is.False);
        Assert.That(server.Probe.Skeleton("datagram", "OnSent"), Is.EqualTo(new[] { "OnStarting", "OnStarted", "OnStopping", "OnStopped" }));
        Assert.That(client.Probe.Skeleton("datagram", "OnSent"), Is.EqualTo(new[] { "OnConnecting", "OnConnected", "OnDisconnecting", "OnDisconnected" }));
        Assert.That(server.Probe.Errors, Is.Empty, "server errors");
        Assert.That(client.Probe.Errors, Is.Empty, "client errors");
    }

    [Test]
    public async Task BlockingReceiveAndTheServersSendOverloadsWorkLikeNetCoreServers()
    {
        using var server = StartedServer(echo: false);
        using var client = ConnectedClient(server.BoundPort, autoReceive: false);

        await Wait.For(Task.Run(() =>
        {
            Assert.That(client.Send("hello"), Is.EqualTo(5));
            EndPoint from = new IPEndPoint(IPAddress.Any, 0);
            var buffer = new byte[64];
            var size = server.Receive(ref from, buffer);
            Assert.That(Encoding.UTF8.GetString(buffer, 0, (int)size), Is.EqualTo("hello"), "server Receive(ref EndPoint, byte[])");
            Assert.That(((IPEndPoint)from).Port, Is.EqualTo(client.LocalPort), "the sender's endpoint comes back through ref");

            Assert.That(server.Send(from, Encoding.UTF8.GetBytes("a")), Is.EqualTo(1));
            Assert.That(server.Send(from, TcpCompatibilityTests.Padded("b"), 2, 1), Is.EqualTo(1));
            Assert.That(server.Send(from, "c"u8), Is.EqualTo(1));
            Assert.That(server.Send(from, "d"), Is.EqualTo(1));
            Assert.That(server.Send(from, "e".AsSpan()), Is.EqualTo(1));
            var received = new List<string>();
            EndPoint sender = new IPEndPoint(IPAddress.Any, 0);
            for (var i = 0; i < 5; i++)
            {
                var chunk = new byte[8];
                var n = client.Receive(ref sender, chunk, 1, 7);
                received.Add(Encoding.UTF8.GetString(chunk, 1, (int)n));
            }
            Assert.That(received, Is.EqualTo(new[] { "a", "b", "c", "d", "e" }), "client Receive(ref EndPoint, byte[], long, long)");
            Assert.That(sender, Is.EqualTo(server.Endpoint), "the datagrams came from the server");

            Assert.That(server.SendAsync(from, Encoding.UTF8.GetBytes("f")), Is.True);
            Assert.That(server.SendAsync(from, TcpCompatibilityTests.Padded("g"), 2, 1), Is.True);
            Assert.That(server.SendAsync(from, "h"u8), Is.True);
            Assert.That(server.SendAsync(from, "i"), Is.True);
            Assert.That(server.SendAsync(from, "j".AsSpan()), Is.True);
            var text = new StringBuilder();
            for (var i = 0; i < 5; i++)
                text.Append(client.Receive(ref sender, 64));
            Assert.That(text.ToString(), Is.EqualTo("fghij"), "client Receive(ref EndPoint, long) returns each datagram as text");
        }), "the blocking exchange");

        Assert.That(client.Probe.Datagrams, Is.EqualTo(new[] { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j" }), "OnReceived ran for every blocking Receive");
        Assert.That(server.Probe.Datagrams, Is.EqualTo(new[] { "hello" }));
        await Wait.For(server.Probe.Logged("OnSent", 10), "server OnSent for each of the ten datagrams");
    }

    [Test]
    public async Task TheServersSendWithoutAnEndpointSendsToItsOwnBoundEndpointAsNetCoreServersDoes()
    {
        // No echo: an echo of a datagram from itself would go round for ever.
        using var server = new CompatUdpServer(IPAddress.Loopback, 0) { Echo = false };
        server.OptionContinuousReceive = true;
        Assert.That(server.Start(), Is.True);

        Assert.That(server.Send(Encoding.UTF8.GetBytes("self:a")), Is.EqualTo(6), "Send(byte[])");
        Assert.That(server.Send(TcpCompatibilityTests.Padded("self:b"), 2, 6), Is.EqualTo(6), "Send(byte[], long, long)");
        Assert.That(server.Send("self:c"u8), Is.EqualTo(6), "Send(ReadOnlySpan<byte>)");
        Assert.That(server.Send("self:d"), Is.EqualTo(6), "Send(string)");
        Assert.That(server.Send("self:e".AsSpan()), Is.EqualTo(6), "Send(ReadOnlySpan<char>)");
        await Wait.For(server.Probe.Logged("datagram", 5), "the server's five datagrams to itself, through OnReceived");
        Assert.That(server.Probe.Datagrams, Is.EqualTo(new[] { "self:a", "self:b", "self:c", "self:d", "self:e" }));
        Assert.That(server.DatagramsSent, Is.EqualTo(5));
        Assert.That(server.DatagramsReceived, Is.EqualTo(5));
        await Wait.For(server.Probe.Logged("OnSent", 5), "OnSent for each Send");
        Assert.That(server.Probe.Errors, Is.Empty);
    }

    [Test]
    public async Task AServerStartedWithAMulticastEndpointStillSendsToItsOwnEndpointWithSend()
    {
        // As in NetCoreServer, Start(multicast endpoint) sets MulticastEndpoint only; Endpoint stays the bound one. The
        // "multicast" endpoint is a unicast loopback client, so nothing here is multicast.
        using var other = ConnectedClient(port: 9, autoReceive: true);
        using var server = new CompatUdpServer(IPAddress.Loopback, 0) { Echo = false };
        server.OptionContinuousReceive = true;
        Assert.That(server.Start(IPAddress.Loopback, other.LocalPort), Is.True);
        Assert.That(server.Endpoint, Is.Not.EqualTo(server.MulticastEndpoint));

        Assert.That(server.Send("to self"), Is.EqualTo(7));
        Assert.That(server.Multicast("to the group"), Is.EqualTo(12));
        await Wait.For(server.Probe.Logged("datagram", 1), "Send's datagram back at the server");
        await Wait.For(other.Probe.Logged("datagram", 1), "Multicast's datagram at the multicast endpoint");
        Assert.That(server.Probe.Datagrams, Is.EqualTo(new[] { "to self" }));
        Assert.That(other.Probe.Datagrams, Is.EqualTo(new[] { "to the group" }));
    }

    [Test]
    public async Task TheMulticastMethodsSendToTheEndpointGivenToStart()
    {
        // The "multicast" endpoint is a unicast loopback client: this checks the API, not group delivery.
        using var receiver = ConnectedClient(port: 9, autoReceive: true);
        var target = new IPEndPoint(IPAddress.Loopback, receiver.LocalPort);
        var starts = new Func<CompatUdpServer, bool>[]
        {
            s => s.Start(IPAddress.Loopback, receiver.LocalPort),
            s => s.Start("127.0.0.1", receiver.LocalPort),
            s => s.Start(target),
        };
        var expected = new List<string>();
        for (var round = 0; round < starts.Length; round++)
        {
            var start = starts[round];
            using var server = new CompatUdpServer(IPAddress.Loopback, 0) { Echo = false };
            Assert.That(start(server), Is.True, "Start with a multicast endpoint returns true");
            Assert.That(server.MulticastEndpoint, Is.EqualTo(target));

            Assert.That(server.Multicast(Encoding.UTF8.GetBytes($"m{round}a")), Is.EqualTo(3));
            Assert.That(server.Multicast(TcpCompatibilityTests.Padded($"m{round}b"), 2, 3), Is.EqualTo(3));
            Assert.That(server.Multicast(Encoding.UTF8.GetBytes($"m{round}c").AsSpan()), Is.EqualTo(3));
            Assert.That(server.Multicast($"m{round}d"), Is.EqualTo(3));
            Assert.That(server.Multicast($"m{round}e".AsSpan()), Is.EqualTo(3));
            Assert.That(server.MulticastAsync(Encoding.UTF8.GetBytes($"m{round}f")), Is.True);
            Assert.That(server.MulticastAsync(TcpCompatibilityTests.Padded($"m{round}g"), 2, 3), Is.True);
            Assert.That(server.MulticastAsync(Encoding.UTF8.GetBytes($"m{round}h").AsSpan()), Is.True);
            Assert.That(server.MulticastAsync($"m{round}i"), Is.True);
            Assert.That(server.MulticastAsync($"m{round}j".AsSpan()), Is.True);
            expected.AddRange("abcdefghij".Select(c => $"m{round}{c}"));
            await Wait.For(receiver.Probe.Logged("datagram", expected.Count), $"the ten datagrams of round {round}");
            Assert.That(server.Stop(), Is.True);
        }
        Assert.That(receiver.Probe.Datagrams, Is.EqualTo(expected), "every Multicast and MulticastAsync overload, in order");
    }

    [Test]
    public void AFailedConnectRaisesOnErrorThenTheDisconnectHooksAsNetCoreServerDoes()
    {
        using var holder = new Socket(AddressFamily.InterNetwork, SocketType.Dgram, ProtocolType.Udp);
        holder.Bind(new IPEndPoint(IPAddress.Any, 0));
        var busyPort = ((IPEndPoint)holder.LocalEndPoint!).Port;
        using var client = new CompatUdpClient(IPAddress.Loopback, busyPort);
        // OptionMulticast only makes Connect bind the endpoint's port, which the holder owns; no group is joined.
        client.OptionMulticast = true;

        Assert.That(client.Connect(), Is.False, "Connect fails on a busy port");
        Assert.That(client.IsConnected, Is.False);
        Assert.That(client.Probe.Snapshot(), Is.EqualTo(new[] { "OnConnecting", "OnError", "OnDisconnecting", "OnDisconnected" }),
            "NetCoreServer's failed-connect order, so a client reconnecting from OnDisconnected retries");
        Assert.That(client.Probe.Errors, Is.EqualTo(new[] { SocketError.AddressAlreadyInUse }));

        client.OptionMulticast = false;
        Assert.That(client.Connect(), Is.True, "Connect works once the cause is gone");
    }

    [Test]
    public void TheMulticastGroupMethodsTakeNetCoreServersArgumentsWithoutTouchingTheNetwork()
    {
        using var client = new CompatUdpClient("127.0.0.1", 9);

        client.SetupMulticast(true);
        Assert.That(client.OptionMulticast && client.OptionReuseAddress, Is.True, "SetupMulticast(true) sets both options");
        client.SetupMulticast(false);
        Assert.That(client.OptionMulticast || client.OptionReuseAddress, Is.False, "SetupMulticast(false) clears them");

        // Not connected: the calls fail before any socket option is set, so no group is joined.
        Assert.Throws<FormatException>(() => client.JoinMulticastGroup("not an address"), "the string overload parses like NetCoreServer's");
        Assert.Throws<InvalidOperationException>(() => client.JoinMulticastGroup("239.255.0.1"));
        Assert.Throws<InvalidOperationException>(() => client.JoinMulticastGroup(IPAddress.Parse("239.255.0.1")));
        Assert.Throws<InvalidOperationException>(() => client.LeaveMulticastGroup("239.255.0.1"));
        Assert.Throws<InvalidOperationException>(() => client.LeaveMulticastGroup(IPAddress.Parse("239.255.0.1")));
        Assert.That(client.Probe.Snapshot(), Is.Empty, "no hook ran");
    }
}
