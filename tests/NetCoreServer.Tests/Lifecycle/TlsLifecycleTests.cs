using System;
using System.Linq;
using System.Net;
using System.Security.Authentication;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Lifecycle;

/// <summary>The lifecycle around the TLS handshake: sends before it, disconnects during it, a handshake that fails with data queued.</summary>
[TestFixture]
public sealed class TlsLifecycleTests
{
    private static TestServer StartServer(SslTestTransport transport, Action<TestServer> configure)
    {
        var server = new TestServer(transport, IPAddress.Loopback);
        configure(server);
        Assert.That(server.Start(), Is.True, "server starts");
        return server;
    }

    [TestCase("OnConnected")]
    [TestCase("OnHandshaking")]
    public async Task ASynchronousSendBeforeTheHandshakeIsDeliveredAfterIt(string hook)
    {
        long sent = -1;
        using var server = StartServer(new SslTestTransport(), s =>
        {
            s.Echo = false;
            s.OnSessionHook = (session, name) =>
            {
                if (name == hook)
                    sent = session.Send("hello");
            };
        });
        using var client = new TestClient(TestTransport.Ssl, server);
        Assert.That(await Wait.For(client.ConnectAndWaitAsync(), "client connect"), Is.True);

        await Wait.For(client.Received.Reaches(5), "the greeting sent before the handshake");
        Assert.That(client.Data(), Is.EqualTo("hello"u8.ToArray()));
        Assert.That(sent, Is.EqualTo(5), "Send counts the bytes it queued for after the handshake");
        Assert.That(server.LastSession!.IsConnected, Is.True, "the session is still connected");
    }

    [Test]
    public async Task ASynchronousSendFromAnotherThreadBeforeTheHandshakeWaitsForIt()
    {
        using var gate = new HookGate("OnHandshaking");
        using var server = StartServer(new SslTestTransport(), s =>
        {
            s.Echo = false;
            s.OnSessionHook = gate.Run;
        });
        using var client = new TestClient(TestTransport.Ssl, server);
        var connect = client.ConnectAndWaitAsync();
        var session = await Wait.For(gate.Entered, "session OnHandshaking entered");

        var send = Task.Run(() => session.Send("early"));
        gate.Release();

        Assert.That(await Wait.For(send, "Send returned after the handshake"), Is.EqualTo(5));
        Assert.That(await Wait.For(connect, "client connect"), Is.True);
        await Wait.For(client.Received.Reaches(5), "the early bytes");
        Assert.That(client.Data(), Is.EqualTo("early"u8.ToArray()));
    }

    [Test]
    public async Task ADisconnectDuringTheHandshakeRunsNoHookAfterOnDisconnected()
    {
        using var gate = new HookGate("OnHandshaking");
        using var server = StartServer(new SslTestTransport(), s =>
        {
            s.Echo = false;
            s.OnSessionHook = gate.Run;
        });
        using var client = new TestClient(TestTransport.Ssl, server);
        var connect = client.ConnectAndWaitAsync();
        var session = await Wait.For(gate.Entered, "session OnHandshaking entered");

        Assert.That(session.Disconnect(), Is.True);
        gate.Release();

        await Wait.For(session.Closed, "session OnDisconnected");
        await Wait.For(connect, "client connect outcome");
        var log = session.Log.Snapshot();
        LifecycleTests.AssertLifecycle(log, "session");
        Assert.That(Array.IndexOf(log, "OnDisconnecting"), Is.GreaterThan(Array.IndexOf(log, "OnHandshaking-end")), $"OnDisconnecting after OnHandshaking returned: [{string.Join(", ", log)}]");
        Assert.That(log, Has.No.Member("OnHandshaked"), "a session disconnected during its handshake is never handshaked");
    }

    [Test]
    public async Task AFailedHandshakeWithASendQueuedEndsAsHandshakeFailed()
    {
        // The server demands a client certificate and rejects every one: its own handshake fails.
        var transport = new SslTestTransport(
            () =>
            {
                var context = SslTestTransport.DefaultServerContext();
                context.ClientCertificateRequired = true;
                context.CertificateValidationCallback = (_, _, _, _) => false;
                return context;
            },
            SslTestTransport.DefaultClientContext);
        using var server = StartServer(transport, s =>
        {
            s.Echo = false;
            s.OnSessionHook = (session, name) =>
            {
                if (name == "OnConnected")
                    session.SendAsync("queued before the handshake");
            };
        });
        using var client = new TestClient(transport, server);
        await Wait.For(client.ConnectAndWaitAsync(), "client connect outcome");

        var session = server.LastSession!;
        await Wait.For(session.Closed, "session closed after its failed handshake");
        Assert.That(session.DisconnectReason, Is.EqualTo(DisconnectReason.HandshakeFailed));
        Assert.That(session.Log.Snapshot(), Has.Member("OnError " + System.Net.Sockets.SocketError.AccessDenied), "OnError says the certificate was refused");
        Assert.That(session.Log.Snapshot(), Has.No.Member("OnHandshaked"));
    }
}
