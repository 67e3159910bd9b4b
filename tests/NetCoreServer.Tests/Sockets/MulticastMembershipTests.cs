using System;
using System.Net;
using System.Threading.Tasks;
using NetCoreServer.Tests.Reliability;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Sockets;

/// <summary>Which sessions a multicast reaches: every session the server counts, over every stream transport and both engines.</summary>
[TestFixtureSource(typeof(ReliabilityTransports), nameof(ReliabilityTransports.All))]
public sealed class MulticastMembershipTests
{
    private readonly TestTransport _transport;

    public MulticastMembershipTests(TestTransport transport) => _transport = transport;

    [Test]
    public async Task ASessionTheServerCountsGetsAMulticastMadeWhileItsOnConnectingRuns()
    {
        // OnConnecting held open widens the window between the server counting the session and the session joining
        // the multicast (a Redis test under load hit it without a gate).
        using var gate = new HookGate("OnConnecting");
        var sent = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var server = new TestServer(_transport, IPAddress.Loopback) { Echo = false };
        server.OnSessionHook = (session, hook) =>
        {
            gate.Run(session, hook);
            if (hook == "OnSent")
                sent.TrySetResult();
        };
        Assert.That(server.Start(), Is.True, "server starts");
        using var client = new TestClient(_transport, server);
        client.Client.ConnectAsync();

        var session = await Wait.For(gate.Entered, "session OnConnecting entered");
        Assert.That(server.ConnectedSessions, Is.EqualTo(1), "the server counts the session while its OnConnecting runs");
        Assert.That(server.FindSession(session.Session.Id), Is.SameAs(session.Session), "FindSession finds it");
        var message = "counted, so multicast to"u8.ToArray();
        Assert.That(server.Multicast(message), Is.True);
        gate.Release();

        await Wait.For(client.Received.Reaches(message.Length), "the multicast made while the counted session was connecting reaches its client");
        Assert.That(client.Data(), Is.EqualTo(message));
        await Wait.For(sent.Task, "the session's OnSent for the multicast");
        var log = session.Log.Snapshot();
        Assert.That(Array.IndexOf(log, "OnSent"), Is.GreaterThan(Array.IndexOf(log, "OnConnected")), $"nothing is sent before OnConnected: [{string.Join(", ", log)}]");
    }

    [Test]
    public async Task AMulticastRefusedWhileTheSessionConnectsIsCountedButRaisesNoHookBeforeOnConnected()
    {
        using var gate = new HookGate("OnConnecting");
        using var server = new TestServer(_transport, IPAddress.Loopback) { Echo = false, SessionSendLimit = 1024, OnSessionHook = gate.Run };
        Assert.That(server.Start(), Is.True, "server starts");
        using var client = new TestClient(_transport, server);
        client.Client.ConnectAsync();

        var session = await Wait.For(gate.Entered, "session OnConnecting entered");
        Assert.That(server.Multicast(new byte[4096]), Is.True, "a message over the session's whole send limit");
        gate.Release();
        await Wait.For(server.Connected.Reaches(1), "session connected");

        Assert.That(server.Options.SkippedMulticasts, Is.EqualTo(1), "the refused message is counted");
        var log = session.Log.Snapshot();
        Assert.That(log, Does.Not.Contain("OnSlowConsumer").And.Not.Contain("OnError NoBufferSpaceAvailable"), $"no hook before OnConnected: [{string.Join(", ", log)}]");
    }
}
