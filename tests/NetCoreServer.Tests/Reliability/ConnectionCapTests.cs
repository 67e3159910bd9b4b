using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Connections;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Reliability;

/// <summary>The server's connection caps (sessions, per address, descriptor reserve) and its refusal hooks, over every stream transport.</summary>
[TestFixtureSource(typeof(ReliabilityTransports), nameof(ReliabilityTransports.All))]
public sealed class ConnectionCapTests
{
    private readonly TestTransport _transport;

    public ConnectionCapTests(TestTransport transport) => _transport = transport;

    private TestServer StartServer(Action<TestServer>? configure = null)
    {
        var server = new TestServer(_transport, IPAddress.Loopback);
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

    private static async Task Echoes(TestClient client, string text)
    {
        var before = client.Received.Value;
        Assert.That(client.SendAsync(text), Is.True);
        await Wait.For(client.Received.Reaches(before + text.Length), $"echo of '{text}'");
    }

    [Test]
    public async Task AConnectionBeyondMaxSessionsIsClosedAtOnceAndTheOthersKeepWorking()
    {
        using var server = StartServer(s => s.Options.OptionMaxSessions = 3);
        var clients = new List<TestClient>();
        for (var i = 0; i < 3; i++)
            clients.Add(await Connect(server));
        await Wait.For(server.Connected.Reaches(3), "3 sessions connected");

        using (var extra = await RawPeer.ConnectAsync(server.Endpoint))
        {
            await Wait.For(extra.Closed(), "the fourth connection closed by the server");
            await Wait.For(server.RefusedCount.Reaches(1), "OnRefused for the fourth connection");
        }
        Assert.That(server.Refusals.Single().Reason, Is.EqualTo(RefusalReason.ServerFull));
        Assert.That(server.Sessions.Count, Is.EqualTo(3), "no session was made for the refused connection");
        Assert.That(server.ConnectedSessions, Is.EqualTo(3));
        foreach (var client in clients)
            await Echoes(client, "still served");

        // A session leaving makes room again.
        Assert.That(clients[0].Disconnect(), Is.True);
        await Wait.For(server.Disconnected.Reaches(1), "one session closed");
        using var next = await Connect(server);
        await Echoes(next, "room again");
        Assert.That(server.RefusedCount.Value, Is.EqualTo(1));
        foreach (var client in clients)
            client.Dispose();
    }

    [Test]
    public async Task MaxSessionsPerAddressRefusesOnlyThatAddress()
    {
        if (_transport.IsUnix)
            Assert.Ignore("Unix sockets have no remote address to count by");
        using var server = StartServer(s => s.Options.OptionMaxSessionsPerAddress = 2);
        using var first = await Connect(server);
        using var second = await Connect(server);
        await Wait.For(server.Connected.Reaches(2), "2 sessions from 127.0.0.1");

        using (var third = await RawPeer.ConnectAsync(server.Endpoint, IPAddress.Loopback))
            await Wait.For(third.Closed(), "a third connection from 127.0.0.1 closed");
        await Wait.For(server.RefusedCount.Reaches(1), "OnRefused for the third connection");
        var refusal = server.Refusals.Single();
        Assert.That(refusal.Reason, Is.EqualTo(RefusalReason.AddressFull));
        Assert.That(((IPEndPoint)refusal.Remote!).Address, Is.EqualTo(IPAddress.Loopback), "the hook sees who was refused");

        // Another loopback address has its own count.
        using var other = await RawPeer.ConnectAsync(server.Endpoint, IPAddress.Parse("127.0.0.2"));
        await Wait.For(server.Accepted.Reaches(3), "the connection from 127.0.0.2 became a session");
        Assert.That(server.RefusedCount.Value, Is.EqualTo(1));
        await Echoes(first, "first still served");
        await Echoes(second, "second still served");
    }

    [Test]
    public async Task ASessionLeavingGivesItsPlaceUnderItsAddressBack()
    {
        if (_transport.IsUnix)
            Assert.Ignore("Unix sockets have no remote address to count by");
        using var server = StartServer(s => s.Options.OptionMaxSessionsPerAddress = 1);
        var first = await Connect(server);
        await Wait.For(server.Connected.Reaches(1), "1 session from 127.0.0.1");
        using (var second = await RawPeer.ConnectAsync(server.Endpoint, IPAddress.Loopback))
            await Wait.For(second.Closed(), "a second connection from 127.0.0.1 closed: the address is full");
        await Wait.For(server.RefusedCount.Reaches(1), "OnRefused for the second connection");

        // The count is given back when the session leaves, after its socket closed.
        Assert.That(first.Disconnect(), Is.True);
        await Wait.For(server.Disconnected.Reaches(1), "the first session closed");
        // Unregistered just before its admission is given back (the same call, after OnDisconnected).
        await Wait.Until(() => server.ConnectedSessions == 0, "the first session unregistered");
        first.Dispose();
        using var next = await Connect(server);
        await Echoes(next, "served once the first left");
        Assert.That(server.RefusedCount.Value, Is.EqualTo(1), "only the connection made while the first was there was refused");
    }

    [Test]
    public async Task OnAcceptingCanRefuseAConnectionWithoutThrowingAndNoSessionHookRunsForIt()
    {
        var refuseNext = true;
        using var server = StartServer(s => s.AcceptFilter = _ =>
        {
            var refuse = refuseNext;
            refuseNext = false;
            return !refuse;
        });
        using (var refused = await RawPeer.ConnectAsync(server.Endpoint))
            await Wait.For(refused.Closed(), "the refused connection closed");
        await Wait.For(server.RefusedCount.Reaches(1), "OnRefused after OnAccepting said no");
        Assert.That(server.Refusals.Single().Reason, Is.EqualTo(RefusalReason.Refused));
        Assert.That(server.Sessions, Is.Empty, "no session object was created");
        Assert.That(server.Log.Snapshot(), Is.EqualTo(new[] { "server.OnRefused Refused" }), "no hook ran for the refused connection but OnRefused");
        Assert.That(server.AcceptingCalls.Value, Is.EqualTo(1));

        using var accepted = await Connect(server);
        await Echoes(accepted, "accepted");
        Assert.That(server.AcceptingCalls.Value, Is.EqualTo(2));
    }

    [Test]
    public async Task AThrowingOnAcceptingRefusesThatConnectionAndTheServerGoesOn()
    {
        var throwNext = true;
        using var server = StartServer(s => s.AcceptFilter = _ =>
        {
            if (!throwNext)
                return true;
            throwNext = false;
            throw new InvalidOperationException("filter bug");
        });
        using (var refused = await RawPeer.ConnectAsync(server.Endpoint))
            await Wait.For(refused.Closed(), "the connection whose filter threw closed");
        await Wait.For(server.RefusedCount.Reaches(1), "OnRefused after the filter threw");
        Assert.That(server.Log.Snapshot(), Has.Member("server.OnHandlerException filter bug"));
        using var accepted = await Connect(server);
        await Echoes(accepted, "accepted");
    }

    [Test]
    [NonParallelizable]
    public async Task TheDescriptorReserveRefusesConnectionsBeforeTheProcessNearsItsLimit()
    {
        Assert.That(Descriptors.Limit, Is.GreaterThan(0), "the descriptor limit is read on Linux");
        using var server = StartServer();
        // The next descriptor the process gets; with no other test running, the numbers below it stay in use.
        int next;
        using (var probe = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp))
            next = (int)Descriptors.Number(probe);
        // Room for some connections (each costs two descriptors here: the client's and the accepted one). The room is
        // generous because the runtime and what earlier tests leave closing may take descriptors meanwhile.
        const int room = 64;
        server.Options.OptionDescriptorReserve = (int)(Descriptors.Limit - (next + room));

        var peers = new List<RawPeer>();
        try
        {
            for (var i = 0; i < room && server.RefusedCount.Value == 0; i++)
            {
                peers.Add(await RawPeer.ConnectAsync(server.Endpoint));
                await Wait.For(Task.WhenAny(server.Accepted.Reaches(peers.Count), server.RefusedCount.Reaches(1)), $"connection {i} accepted or refused");
            }
            Assert.That(server.RefusedCount.Value, Is.EqualTo(1), $"a connection was refused within {room} tries");
            Assert.That(server.Refusals.Single().Reason, Is.EqualTo(RefusalReason.DescriptorReserve));
            await Wait.For(peers[^1].Closed(), "the refused connection closed at once");
            Assert.That(peers.Count, Is.GreaterThan(1), "connections were accepted while the reserve was free");
            Assert.That(server.ConnectedSessions, Is.EqualTo(peers.Count - 1), "the accepted ones are still sessions");
            Assert.That(server.Disconnected.Value, Is.EqualTo(0), "no accepted session was disturbed");
        }
        finally
        {
            foreach (var peer in peers)
                peer.Dispose();
        }
        await Wait.For(server.Disconnected.Reaches(peers.Count - 1), "the accepted sessions closed with their peers");
        server.Options.OptionDescriptorReserve = StreamServer<TcpSession>.DefaultDescriptorReserve;
        using var after = await Connect(server);
        await Echoes(after, "accepted again");
    }
}
