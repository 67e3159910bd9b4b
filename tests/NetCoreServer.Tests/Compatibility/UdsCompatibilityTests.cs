using System;
using System.IO;
using System.Linq;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>The compat-shaped Unix domain socket classes end to end, each server on its own temporary socket file.</summary>
[TestFixture]
public sealed class UdsCompatibilityTests
{
    private static CompatUdsServer StartedServer(string path)
    {
        var server = new CompatUdsServer(path);
        server.OptionAcceptorBacklog = 1024;
        server.OptionReceiveBufferSize = 8192;
        server.OptionSendBufferSize = 8192;
        Assert.That(server.Start(), Is.True, "Start returns true");
        return server;
    }

    private static CompatUdsClient NewClient(string path)
    {
        var client = new CompatUdsClient(path);
        client.OptionReceiveBufferLimit = 1 << 20;
        client.OptionReceiveBufferSize = 8192;
        client.OptionSendBufferLimit = 16 << 20;
        client.OptionSendBufferSize = 8192;
        return client;
    }

    [Test]
    public async Task AnEchoOverAUnixSocketRoundTripsEverySendOverloadWithTheHooksInNetCoreServersOrder()
    {
        var path = UdsTestTransport.NewPath();
        using var server = StartedServer(path);
        Assert.That(File.Exists(path), Is.True, "the socket file exists while the server runs");
        Assert.That(server.Endpoint, Is.InstanceOf<UnixDomainSocketEndPoint>());
        using var client = NewClient(path);

        Assert.That(client.ConnectAsync(), Is.True, "ConnectAsync returns bool");
        await Wait.For(client.Probe.Logged("OnEmpty"), "client connected");
        await Wait.For(server.Probe.Logged("session.OnEmpty"), "session connected");
        var session = server.ConnectedSessionList().Single();
        Assert.That(server.FindSession(session.Id), Is.SameAs(session));
        Assert.That(session.Server, Is.SameAs(server));

        Assert.That(client.Send(TcpCompatibilityTests.Bytes("1;")), Is.EqualTo(2));
        Assert.That(client.Send(TcpCompatibilityTests.Padded("2;"), 2, 2), Is.EqualTo(2));
        Assert.That(client.Send("3;"u8), Is.EqualTo(2));
        Assert.That(client.Send("4;"), Is.EqualTo(2));
        Assert.That(client.Send("5;".AsSpan()), Is.EqualTo(2));
        Assert.That(client.SendAsync(TcpCompatibilityTests.Bytes("6;")), Is.True);
        Assert.That(client.SendAsync(TcpCompatibilityTests.Padded("7;"), 2, 2), Is.True);
        Assert.That(client.SendAsync("8;"u8), Is.True);
        Assert.That(client.SendAsync("9;"), Is.True);
        Assert.That(client.SendAsync("0;".AsSpan()), Is.True);
        await Wait.For(client.Probe.ReceivedBytes.Reaches(20), "the echo of all ten sends");
        Assert.That(client.Probe.ReceivedText(), Is.EqualTo("1;2;3;4;5;6;7;8;9;0;"));
        Assert.That(server.Multicast("all;"), Is.True);
        await Wait.For(client.Probe.ReceivedBytes.Reaches(24), "a Multicast over a Unix socket");
        Assert.That(server.BytesReceived, Is.EqualTo(20));

        Assert.That(session.Disconnect(), Is.True, "the session disconnects its client");
        await Wait.For(client.Probe.Logged("OnDisconnected"), "client OnDisconnected after the session's Disconnect");
        await Wait.For(server.Probe.Logged("server.OnDisconnected"), "server OnDisconnected");
        Assert.That(server.Stop(), Is.True);
        Assert.That(File.Exists(path), Is.False, "the socket file is removed on Stop");

        Assert.That(server.Probe.Snapshot().Take(7), Is.EqualTo(new[]
        {
            "server.OnStarting", "server.OnStarted",
            "session.OnConnecting", "server.OnConnecting", "session.OnConnected", "server.OnConnected", "session.OnEmpty",
        }));
        Assert.That(server.Probe.Skeleton("session.OnReceived", "session.OnSent", "session.OnEmpty").Skip(6), Is.EqualTo(new[]
        {
            "session.OnDisconnecting", "server.OnDisconnecting", "session.OnDisconnected", "server.OnDisconnected",
            "server.OnStopping", "server.OnStopped",
        }));
        Assert.That(client.Probe.Snapshot().Take(3), Is.EqualTo(new[] { "OnConnecting", "OnConnected", "OnEmpty" }));
        Assert.That(client.Probe.Skeleton("OnReceived", "OnSent", "OnEmpty"), Is.EqualTo(new[] { "OnConnecting", "OnConnected", "OnDisconnecting", "OnDisconnected" }));
        Assert.That(server.Probe.Errors, Is.Empty, "server and session errors");
        Assert.That(client.Probe.Errors, Is.Empty, "client errors");
    }

    [Test]
    public async Task ARestartedServerAcceptsASynchronousClientAgainOnTheSamePath()
    {
        var path = UdsTestTransport.NewPath();
        using var server = StartedServer(path);
        using var client = NewClient(path);
        Assert.That(client.Connect(), Is.True, "synchronous connect");
        // NetCoreServer's synchronous connect does not receive by itself; ReceiveAsync starts the receive loop, which
        // is what lets the client notice the server going away.
        client.ReceiveAsync();
        await Wait.For(server.Probe.Logged("server.OnConnected"), "first session");

        Assert.That(server.Restart(), Is.True, "Restart returns true");
        await Wait.For(client.Probe.Logged("OnDisconnected"), "the client of the stopped server is disconnected");
        Assert.That(server.Probe.Logged("server.OnStarted", 2).IsCompleted, Is.True, "OnStarted ran again");

        await Wait.For(Task.Run(() =>
        {
            Assert.That(client.Connect(), Is.True, "connect to the restarted server");
            Assert.That(client.Send("again"), Is.EqualTo(5));
            var text = new StringBuilder();
            while (text.Length < 5)
                text.Append(client.Receive(5 - text.Length));
            Assert.That(text.ToString(), Is.EqualTo("again"), "Receive(long) over a Unix socket");
        }), "the synchronous exchange after Restart");
        Assert.That(client.Disconnect(), Is.True);
        Assert.That(client.Probe.Errors, Is.Empty, "client errors");
    }
}
