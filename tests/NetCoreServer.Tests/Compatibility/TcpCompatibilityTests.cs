using System;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// The compat-shaped TCP classes run end to end over loopback the way a NetCoreServer user drives them: options set
/// before Start, every Send/SendAsync/Multicast overload, the synchronous client, hooks in NetCoreServer's order.
/// </summary>
[TestFixture]
public sealed class TcpCompatibilityTests
{
    // NetCoreServer's per-connection order once the data hooks are left out.
    private static readonly string[] s_serverSkeleton =
    [
        "server.OnStarting", "server.OnStarted",
        "session.OnConnecting", "server.OnConnecting", "session.OnConnected", "server.OnConnected",
        "session.OnDisconnecting", "server.OnDisconnecting", "session.OnDisconnected", "server.OnDisconnected",
        "server.OnStopping", "server.OnStopped",
    ];

    private static readonly string[] s_clientSkeleton = ["OnConnecting", "OnConnected", "OnDisconnecting", "OnDisconnected"];

    internal static byte[] Bytes(string text) => Encoding.UTF8.GetBytes(text);

    /// <summary><paramref name="text"/> between two bytes of padding on each side, for the (buffer, offset, size) overloads.</summary>
    internal static byte[] Padded(string text) => Bytes("<<" + text + ">>");

    private static CompatTcpServer StartedServer()
    {
        var server = new CompatTcpServer(IPAddress.Loopback, 0);
        server.OptionAcceptorBacklog = 1024;
        server.OptionDualMode = false;
        server.OptionKeepAlive = true;
        server.OptionTcpKeepAliveTime = 60;
        server.OptionTcpKeepAliveInterval = 10;
        server.OptionTcpKeepAliveRetryCount = 5;
        server.OptionNoDelay = true;
        server.OptionReuseAddress = true;
        server.OptionExclusiveAddressUse = false;
        server.OptionReceiveBufferSize = 8192;
        server.OptionSendBufferSize = 8192;
        Assert.That(server.Start(), Is.True, "Start returns true");
        return server;
    }

    private static CompatTcpClient NewClient(CompatTcpServer server)
    {
        var client = new CompatTcpClient(IPAddress.Loopback, ((IPEndPoint)server.Endpoint).Port);
        client.OptionDualMode = false;
        client.OptionKeepAlive = true;
        client.OptionTcpKeepAliveTime = 60;
        client.OptionTcpKeepAliveInterval = 10;
        client.OptionTcpKeepAliveRetryCount = 5;
        client.OptionNoDelay = true;
        client.OptionReceiveBufferLimit = 1 << 20;
        client.OptionReceiveBufferSize = 8192;
        client.OptionSendBufferLimit = 16 << 20;
        client.OptionSendBufferSize = 8192;
        return client;
    }

    [Test]
    public async Task AnEchoRoundTripsEverySendOverloadWithTheHooksInNetCoreServersOrder()
    {
        using var server = StartedServer();
        Assert.That(server.IsStarted && server.IsAccepting, Is.True, "started and accepting");
        Assert.That(server.SocketsCreated.Value, Is.EqualTo(1), "the server's CreateSocket override made the listener");
        using var client = NewClient(server);

        Assert.That(client.ConnectAsync(), Is.True, "ConnectAsync returns bool, as NetCoreServer's");
        await Wait.For(client.Probe.Logged("OnEmpty"), "client OnEmpty after OnConnected");
        await Wait.For(server.Probe.Logged("session.OnEmpty"), "session OnEmpty after OnConnected");
        Assert.That(client.IsConnected, Is.True);
        Assert.That(client.SocketsCreated.Value, Is.EqualTo(1), "the client's CreateSocket override made its socket");
        Assert.That(server.ConnectedSessions, Is.EqualTo(1));
        var session = server.ConnectedSessionList().Single();
        Assert.That(server.FindSession(session.Id), Is.SameAs(session), "FindSession by Id");
        Assert.That(session.Server, Is.SameAs(server));
        Assert.That(session.Socket!.NoDelay, Is.True, "server OptionNoDelay reached the session socket");
        Assert.That(session.Socket.GetSocketOption(SocketOptionLevel.Socket, SocketOptionName.KeepAlive), Is.Not.EqualTo(0), "server OptionKeepAlive");
        Assert.That(session.Socket.GetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveTime), Is.EqualTo(60), "server OptionTcpKeepAliveTime");
        Assert.That(client.Socket!.NoDelay, Is.True, "client OptionNoDelay");
        Assert.That(client.Socket.GetSocketOption(SocketOptionLevel.Tcp, SocketOptionName.TcpKeepAliveInterval), Is.EqualTo(10), "client OptionTcpKeepAliveInterval");

        var expected = new StringBuilder();
        expected.Append("send(byte[]);");
        Assert.That(client.Send(Bytes("send(byte[]);")), Is.EqualTo(13));
        expected.Append("send(byte[],offset,size);");
        Assert.That(client.Send(Padded("send(byte[],offset,size);"), 2, 25), Is.EqualTo(25));
        expected.Append("send(span<byte>);");
        Assert.That(client.Send("send(span<byte>);"u8), Is.EqualTo(17));
        expected.Append("send(string);");
        Assert.That(client.Send("send(string);"), Is.EqualTo(13));
        expected.Append("send(span<char>);");
        Assert.That(client.Send("send(span<char>);".AsSpan()), Is.EqualTo(17));
        expected.Append("sendasync(byte[]);");
        Assert.That(client.SendAsync(Bytes("sendasync(byte[]);")), Is.True);
        expected.Append("sendasync(byte[],offset,size);");
        Assert.That(client.SendAsync(Padded("sendasync(byte[],offset,size);"), 2, 30), Is.True);
        expected.Append("sendasync(span<byte>);");
        Assert.That(client.SendAsync("sendasync(span<byte>);"u8), Is.True);
        expected.Append("sendasync(string);");
        Assert.That(client.SendAsync("sendasync(string);"), Is.True);
        expected.Append("sendasync(span<char>);");
        Assert.That(client.SendAsync("sendasync(span<char>);".AsSpan()), Is.True);

        var length = expected.Length;
        await Wait.For(client.Probe.ReceivedBytes.Reaches(length), $"the echo of all ten sends ({length} bytes)");
        Assert.That(client.Probe.ReceivedText(), Is.EqualTo(expected.ToString()), "the echo, in send order");
        Assert.That(client.BytesSent, Is.EqualTo(length));
        Assert.That(client.BytesReceived, Is.EqualTo(length));
        Assert.That(session.BytesReceived, Is.EqualTo(length));
        Assert.That(server.BytesReceived, Is.EqualTo(length));

        Assert.That(client.DisconnectAsync(), Is.True, "DisconnectAsync returns bool");
        await Wait.For(client.Probe.Logged("OnDisconnected"), "client OnDisconnected");
        await Wait.For(server.Probe.Logged("server.OnDisconnected"), "server OnDisconnected for the session");
        Assert.That(client.IsConnected, Is.False);
        // The server unregisters a session after its OnDisconnected hooks (as NetCoreServer does), so this is a wait.
        await Wait.Until(() => server.ConnectedSessions == 0, "the session is unregistered");
        Assert.That(server.Stop(), Is.True, "Stop returns true");
        Assert.That(server.IsStarted, Is.False);

        Assert.That(server.Probe.Snapshot().Take(7), Is.EqualTo(new[]
        {
            "server.OnStarting", "server.OnStarted",
            "session.OnConnecting", "server.OnConnecting", "session.OnConnected", "server.OnConnected", "session.OnEmpty",
        }), "connect order, with the first OnEmpty before any data");
        Assert.That(server.Probe.Skeleton("session.OnReceived", "session.OnSent", "session.OnEmpty"), Is.EqualTo(s_serverSkeleton));
        Assert.That(client.Probe.Snapshot().Take(3), Is.EqualTo(new[] { "OnConnecting", "OnConnected", "OnEmpty" }));
        Assert.That(client.Probe.Skeleton("OnReceived", "OnSent", "OnEmpty"), Is.EqualTo(s_clientSkeleton));
        Assert.That(server.Probe.Errors, Is.Empty, "server and session errors");
        Assert.That(client.Probe.Errors, Is.Empty, "client errors");
    }

    [Test]
    public async Task TheServerAndASessionReachClientsWithEveryMulticastAndSendOverload()
    {
        using var server = StartedServer();
        using var first = NewClient(server);
        using var second = NewClient(server);
        foreach (var client in new[] { first, second })
            Assert.That(client.ConnectAsync(), Is.True);
        await Wait.For(server.Probe.Logged("server.OnConnected", 2), "both sessions connected");
        await Wait.For(Task.WhenAll(first.Probe.Logged("OnEmpty"), second.Probe.Logged("OnEmpty")), "both clients connected");

        Assert.That(server.Multicast(Bytes("m(byte[]);")), Is.True);
        Assert.That(server.Multicast(Padded("m(byte[],offset,size);"), 2, 22), Is.True);
        Assert.That(server.Multicast("m(span<byte>);"u8), Is.True);
        Assert.That(server.Multicast("m(string);"), Is.True);
        Assert.That(server.Multicast("m(span<char>);".AsSpan()), Is.True);
        const string multicast = "m(byte[]);m(byte[],offset,size);m(span<byte>);m(string);m(span<char>);";
        foreach (var client in new[] { first, second })
            await Wait.For(client.Probe.ReceivedBytes.Reaches(multicast.Length), "every Multicast overload at every client");
        Assert.That(first.Probe.ReceivedText(), Is.EqualTo(multicast));
        Assert.That(second.Probe.ReceivedText(), Is.EqualTo(multicast));

        // One session answers its own client with every overload; the other client gets nothing more.
        var session = server.ConnectedSessionList().Single(s => s.Socket!.RemoteEndPoint!.Equals(first.Socket!.LocalEndPoint));
        Assert.That(session.Send(Bytes("s(byte[]);")), Is.EqualTo(10));
        Assert.That(session.Send(Padded("s(byte[],offset,size);"), 2, 22), Is.EqualTo(22));
        Assert.That(session.Send("s(span<byte>);"u8), Is.EqualTo(14));
        Assert.That(session.Send("s(string);"), Is.EqualTo(10));
        Assert.That(session.Send("s(span<char>);".AsSpan()), Is.EqualTo(14));
        Assert.That(session.SendAsync(Bytes("a(byte[]);")), Is.True);
        Assert.That(session.SendAsync(Padded("a(byte[],offset,size);"), 2, 22), Is.True);
        Assert.That(session.SendAsync("a(span<byte>);"u8), Is.True);
        Assert.That(session.SendAsync("a(string);"), Is.True);
        Assert.That(session.SendAsync("a(span<char>);".AsSpan()), Is.True);
        const string direct = "s(byte[]);s(byte[],offset,size);s(span<byte>);s(string);s(span<char>);"
            + "a(byte[]);a(byte[],offset,size);a(span<byte>);a(string);a(span<char>);";
        await Wait.For(first.Probe.ReceivedBytes.Reaches(multicast.Length + direct.Length), "every session Send and SendAsync overload");
        Assert.That(first.Probe.ReceivedText(), Is.EqualTo(multicast + direct));

        Assert.That(server.DisconnectAll(), Is.True, "DisconnectAll returns true while started");
        await Wait.For(Task.WhenAll(first.Probe.Logged("OnDisconnected"), second.Probe.Logged("OnDisconnected")), "both clients see the server disconnect them");
        await Wait.For(server.Probe.Logged("server.OnDisconnected", 2), "both sessions disconnected");
        await Wait.Until(() => server.ConnectedSessions == 0, "both sessions unregistered after their hooks");
        Assert.That(second.Probe.ReceivedText(), Is.EqualTo(multicast), "the other client got only the multicast");
    }

    [Test]
    public async Task AFailedConnectRaisesTheDisconnectHooksInNetCoreServersOrder()
    {
        // A bound socket that does not listen: connecting to its port is refused, and the port stays ours.
        using var closed = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        closed.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        var port = ((IPEndPoint)closed.LocalEndPoint!).Port;

        using var sync = new CompatTcpClient(IPAddress.Loopback, port);
        Assert.That(sync.Connect(), Is.False, "a refused synchronous Connect returns false");
        Assert.That(sync.Probe.Snapshot(), Is.EqualTo(new[] { "OnConnecting", "OnDisconnecting", "OnDisconnected" }),
            "refused is an ordinary ending: no OnError, then the disconnect hooks");

        using var async = new CompatTcpClient(IPAddress.Loopback, port);
        Assert.That(async.ConnectAsync(), Is.True, "ConnectAsync only starts the attempt");
        await Wait.For(async.Probe.Logged("OnDisconnected"), "OnDisconnected after the refused asynchronous connect");
        Assert.That(async.Probe.Snapshot(), Is.EqualTo(new[] { "OnConnecting", "OnDisconnected" }), "NetCoreServer's asynchronous failure order");
        Assert.That(async.IsConnected || async.IsConnecting, Is.False);
    }

    [Test]
    public async Task TheClientsNewSocketIsSetBeforeOnConnectingRunsAsInNetCoreServer()
    {
        using var server = StartedServer();
        using var client = NewClient(server);

        Assert.That(client.Connect(), Is.True, "synchronous Connect");
        var first = client.SocketInOnConnecting;
        Assert.That(first, Is.Not.Null, "OnConnecting of a synchronous Connect sees the socket (users set socket options there)");
        Assert.That(client.ConnectedInOnConnecting, Is.False, "it is not connected yet when OnConnecting runs");
        Assert.That(client.Socket, Is.SameAs(first), "the connection uses the socket OnConnecting saw");
        Assert.That(client.SocketsCreated.Value, Is.EqualTo(1), "CreateSocket ran once");

        Assert.That(client.Disconnect(), Is.True);
        Assert.That(client.ConnectAsync(), Is.True, "ConnectAsync");
        await Wait.For(client.Probe.Logged("OnConnected", 2), "connected again asynchronously");
        Assert.That(client.SocketInOnConnecting, Is.Not.Null.And.Not.SameAs(first), "OnConnecting of ConnectAsync sees the new socket");
        Assert.That(client.ConnectedInOnConnecting, Is.False, "not connected yet then either");
        Assert.That(client.Socket, Is.SameAs(client.SocketInOnConnecting), "the asynchronous connection uses that socket");
        Assert.That(client.SocketsCreated.Value, Is.EqualTo(2), "one CreateSocket per connect");
    }

    [Test]
    public async Task ASynchronousClientConnectsSendsAndReceivesLikeNetCoreServersSyncClient()
    {
        using var server = StartedServer();
        using var client = NewClient(server);

        await Wait.For(Task.Run(() =>
        {
            Assert.That(client.Connect(), Is.True, "synchronous Connect");
            Assert.That(client.Probe.Snapshot(), Is.EqualTo(new[] { "OnConnecting", "OnConnected", "OnEmpty" }), "hooks of the synchronous connect, on its thread");

            // Like NetCoreServer, a synchronous connect does not start receiving: the blocking Receive overloads read.
            Assert.That(client.Send("ping"), Is.EqualTo(4));
            var text = new StringBuilder();
            while (text.Length < 4)
                text.Append(client.Receive(4 - text.Length));
            Assert.That(text.ToString(), Is.EqualTo("ping"), "Receive(long) returns the text");

            Assert.That(client.Send("0123456789"), Is.EqualTo(10));
            var head = new byte[4];
            long received = 0;
            while (received < head.Length)
                received += client.Receive(head, received, head.Length - received);
            var tail = new StringBuilder();
            while (tail.Length < 6)
            {
                var chunk = new byte[6 - tail.Length];
                tail.Append(Encoding.UTF8.GetString(chunk, 0, (int)client.Receive(chunk)));
            }
            Assert.That(Encoding.UTF8.GetString(head) + tail, Is.EqualTo("0123456789"), "Receive(byte[], long, long), then Receive(byte[])");
        }), "the synchronous client's exchange");
        Assert.That(client.Probe.ReceivedText(), Is.EqualTo("ping0123456789"), "OnReceived ran for every blocking Receive");

        Assert.That(client.Disconnect(), Is.True, "Disconnect");
        Assert.That(client.Probe.Logged("OnDisconnected").IsCompleted, Is.True, "the synchronous Disconnect returns after OnDisconnected");
        Assert.That(client.Reconnect(), Is.False, "Reconnect of a disconnected client returns false, as NetCoreServer's");
        Assert.That(client.Connect(), Is.True, "connect again");
        Assert.That(client.Reconnect(), Is.True, "Reconnect of a connected client");
        Assert.That(client.Probe.Logged("OnConnected", 3).IsCompleted, Is.True, "three synchronous connects");

        client.ReceiveAsync();
        Assert.That(client.SendAsync("after ReceiveAsync"), Is.True);
        await Wait.For(client.Probe.ReceivedBytes.Reaches(14 + 18), "echo through the receive loop started by ReceiveAsync");

        Assert.That(client.ReconnectAsync(), Is.True, "ReconnectAsync of a connected client");
        await Wait.For(client.Probe.Logged("OnConnected", 4), "connected again by ReconnectAsync");
        Assert.That(client.SendAsync("again"), Is.True);
        await Wait.For(client.Probe.ReceivedBytes.Reaches(14 + 18 + 5), "echo after ReconnectAsync (it receives by itself, like ConnectAsync)");
        Assert.That(client.Probe.Errors, Is.Empty, "client errors");
    }
}
