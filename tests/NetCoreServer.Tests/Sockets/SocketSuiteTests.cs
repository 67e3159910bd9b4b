using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Sockets;

/// <summary>The socket suite, written once and run over every stream transport (and IPv4 and IPv6 where they apply).</summary>
[TestFixtureSource(nameof(Transports))]
public sealed class SocketSuiteTests
{
    private readonly TestTransport _transport;
    private readonly IPAddress _address;

    public SocketSuiteTests(TestTransport transport, string address)
    {
        _transport = transport;
        _address = IPAddress.Parse(address);
    }

    public static readonly object[] Transports =
    {
        new object[] { TestTransport.Tcp, "127.0.0.1" },
        new object[] { TestTransport.Tcp, "::1" },
        new object[] { TestTransport.Ssl, "127.0.0.1" },
        new object[] { TestTransport.Ssl, "::1" },
        new object[] { TestTransport.Uds, "127.0.0.1" },
        new object[] { TestTransport.TcpPool, "127.0.0.1" },
        new object[] { TestTransport.TcpPool, "::1" },
        new object[] { TestTransport.SslPool, "127.0.0.1" },
        new object[] { TestTransport.UdsPool, "127.0.0.1" },
    };

    private bool Secure => _transport.Secure;

    private TestServer StartServer(Action<TestServer>? configure = null)
    {
        var server = new TestServer(_transport, _address);
        configure?.Invoke(server);
        Assert.That(server.Start(), Is.True, "server starts");
        return server;
    }

    private TestClient NewClient(TestServer server) => new(_transport, server);

    private async Task<TestClient> Connect(TestServer server)
    {
        var client = NewClient(server);
        Assert.That(await Wait.For(client.ConnectAndWaitAsync(), "client connect"), Is.True, "client connected");
        return client;
    }

    [Test]
    public void ServerStartedOnPortZeroReportsItsBoundPort()
    {
        if (_transport.IsUnix)
            Assert.Ignore("Unix domain sockets have no ports");
        using var server = StartServer();
        var endpoint = (IPEndPoint)server.Endpoint;
        Assert.That(endpoint.Port, Is.GreaterThan(0));
        Assert.That(endpoint.Address, Is.EqualTo(_address));
    }

    [Test]
    public async Task EchoReturnsEveryByteInOrderForRandomSizesAndManyClients()
    {
        using var server = StartServer();
        var random = new Random(1234);
        var clients = new List<(TestClient Client, byte[] Sent)>();
        for (var i = 0; i < 16; i++)
        {
            var client = await Connect(server);
            var sent = new List<byte>();
            for (var m = 0; m < 20; m++)
            {
                var message = new byte[random.Next(1, 64 * 1024)];
                random.NextBytes(message);
                sent.AddRange(message);
                Assert.That(client.SendAsync(message), Is.True, "SendAsync accepted");
            }
            clients.Add((client, sent.ToArray()));
        }
        foreach (var (client, sent) in clients)
        {
            await Wait.For(client.Received.Reaches(sent.Length), $"{sent.Length} echoed bytes");
            Assert.That(client.Data(), Is.EqualTo(sent), "echoed bytes equal sent bytes");
            client.Disconnect();
        }
        await Wait.For(server.Disconnected.Reaches(16), "16 sessions disconnected");
        await Wait.Until(() => server.ConnectedSessions == 0, "no session left registered (a session leaves the table after its OnDisconnected)");
        Assert.That(server.BytesReceived, Is.EqualTo(clients.Sum(c => (long)c.Sent.Length)));
    }

    [Test]
    public async Task MulticastReachesEveryConnectedSessionOnceForSmallAndLargeMessages()
    {
        using var server = StartServer(s => s.Echo = false);
        var clients = new List<TestClient>();
        for (var i = 0; i < 10; i++)
            clients.Add(await Connect(server));
        await Wait.For(server.Connected.Reaches(10), "10 sessions connected");

        var small = Enumerable.Range(0, 100).Select(i => (byte)i).ToArray();
        var large = Enumerable.Range(0, 5000).Select(i => (byte)(i * 7)).ToArray();
        var expected = new List<byte>();
        for (var i = 0; i < 50; i++)
        {
            Assert.That(server.Multicast(small), Is.True);
            Assert.That(server.Multicast(large), Is.True);
            expected.AddRange(small);
            expected.AddRange(large);
        }
        Assert.That(server.Multicast("text"), Is.True);
        expected.AddRange("text"u8.ToArray());

        foreach (var client in clients)
        {
            await Wait.For(client.Received.Reaches(expected.Count), $"{expected.Count} multicast bytes");
            Assert.That(client.Data(), Is.EqualTo(expected.ToArray()));
            client.Disconnect();
        }
    }

    [Test]
    public async Task HooksRunInNetCoreServerOrderOnBothSides()
    {
        using var server = StartServer();
        var client = await Connect(server);
        await Wait.For(server.FirstConnected, "server OnConnected");
        client.SendAsync("hello");
        await Wait.For(client.Received.Reaches(5), "echo of hello");
        var session = server.LastSession!;
        Assert.That(client.Disconnect(), Is.True);
        await Wait.For(session.Closed, "session OnDisconnected");
        await Wait.For(server.Disconnected.Reaches(1), "server OnDisconnected");

        var clientConnect = Secure
            ? new[] { "OnConnecting", "OnConnected", "OnHandshaking", "OnHandshaked" }
            : new[] { "OnConnecting", "OnConnected" };
        Assert.That(client.Log.Skeleton("OnSent", "OnEmpty", "OnReceived"),
            Is.EqualTo(clientConnect.Concat(new[] { "OnDisconnecting", "OnDisconnected" }).ToArray()));
        var clientLog = client.Log.Snapshot();
        Assert.That(clientLog[clientConnect.Length], Is.EqualTo("OnEmpty"), "OnEmpty follows the connect (and handshake) hooks");
        Assert.That(Array.IndexOf(clientLog, "OnReceived"), Is.GreaterThan(clientConnect.Length));

        var serverConnect = Secure
            ? new[]
            {
                "session.OnConnecting", "server.OnConnecting", "session.OnConnected", "server.OnConnected",
                "session.OnHandshaking", "server.OnHandshaking", "session.OnHandshaked", "server.OnHandshaked",
            }
            : new[] { "session.OnConnecting", "server.OnConnecting", "session.OnConnected", "server.OnConnected" };
        Assert.That(server.Log.Skeleton("session.OnSent", "session.OnEmpty", "session.OnReceived"), Is.EqualTo(serverConnect.Concat(new[]
        {
            "session.OnDisconnecting", "server.OnDisconnecting", "session.OnDisconnected", "server.OnDisconnected",
        }).ToArray()));
        var serverLog = server.Log.Snapshot();
        Assert.That(serverLog[serverConnect.Length], Is.EqualTo("session.OnEmpty"), "OnEmpty right after connect (and handshake)");
        Assert.That(Array.IndexOf(serverLog, "session.OnReceived"), Is.GreaterThan(serverConnect.Length), "nothing received before the connect hooks");
        Assert.That(session.DisconnectReason, Is.EqualTo(DisconnectReason.PeerClosed));
        Assert.That(client.DisconnectReason, Is.EqualTo(DisconnectReason.Local));
    }

    [Test]
    public async Task ServerSideDisconnectReachesTheClient()
    {
        using var server = StartServer();
        var client = await Connect(server);
        await Wait.For(server.FirstConnected, "server OnConnected");
        Assert.That(server.LastSession!.Disconnect(), Is.True);
        Assert.That(server.LastSession.Disconnect(), Is.False, "second Disconnect is a no-op");
        await Wait.For(client.Closed, "client OnDisconnected after the server disconnected it");
        Assert.That(client.IsConnected, Is.False);
        Assert.That(client.DisconnectReason, Is.EqualTo(DisconnectReason.PeerClosed));
        await Wait.For(server.Disconnected.Reaches(1), "server OnDisconnected");
        await Wait.Until(() => server.ConnectedSessions == 0, "no session left registered (a session leaves the table after its OnDisconnected)");
    }

    [Test]
    public async Task ASessionCanSayGoodbyeFromOnDisconnectingAsInNetCoreServer()
    {
        long sentSync = -1;
        var sentAsync = false;
        using var server = StartServer(s => s.OnSessionDisconnecting = session =>
        {
            sentSync = session.Send("bye-sync;");
            sentAsync = session.SendAsync("bye-async;");
        });
        var client = await Connect(server);
        await Wait.For(server.FirstConnected, "server OnConnected");
        Assert.That(server.LastSession!.Disconnect(), Is.True);
        await Wait.For(client.Closed, "client OnDisconnected after the server's goodbye");
        Assert.That(sentSync, Is.EqualTo(9), "the synchronous Send in OnDisconnecting sent its bytes");
        Assert.That(sentAsync, Is.True, "SendAsync in OnDisconnecting was accepted");
        Assert.That(System.Text.Encoding.UTF8.GetString(client.Data()), Is.EqualTo("bye-sync;bye-async;"), "both goodbyes arrived, in order, before the end of the stream");
        Assert.That(client.DisconnectReason, Is.EqualTo(DisconnectReason.PeerClosed));
        Assert.That(server.LastSession.SendAsync("after"), Is.False, "outside the hook a disconnecting session refuses sends");
    }

    [Test]
    public async Task AClientCanSayGoodbyeFromOnDisconnectingAsInNetCoreServer()
    {
        using var server = StartServer(s => s.Echo = false);
        var client = await Connect(server);
        await Wait.For(server.FirstConnected, "server OnConnected");
        var accepted = false;
        client.OnDisconnectingHook = c => accepted = c.SendAsync("goodbye");
        Assert.That(client.Disconnect(), Is.True);
        Assert.That(accepted, Is.True, "SendAsync in the client's OnDisconnecting was accepted");
        await Wait.For(server.Received.Reaches(7), "the server received the goodbye");
        await Wait.For(server.Disconnected.Reaches(1), "server OnDisconnected");
        Assert.That(server.Received.Value, Is.EqualTo(7));
    }

    [Test]
    public async Task ClientDisconnectRemovesTheServerSession()
    {
        using var server = StartServer();
        var client = await Connect(server);
        await Wait.For(server.Connected.Reaches(1), "server OnConnected");
        Assert.That(server.ConnectedSessions, Is.EqualTo(1));
        Assert.That(client.Disconnect(), Is.True);
        Assert.That(client.IsConnected, Is.False);
        Assert.That(client.IsSocketDisposed, Is.True, "synchronous Disconnect returns after the socket closed");
        await Wait.For(server.Disconnected.Reaches(1), "server OnDisconnected");
        await Wait.Until(() => server.ConnectedSessions == 0, "no session left registered (a session leaves the table after its OnDisconnected)");
    }

    [Test]
    public async Task SendAndDisconnectAfterCloseNeverThrow()
    {
        using var server = StartServer();
        var client = await Connect(server);
        client.Disconnect();
        Assert.That(client.SendAsync("late"), Is.False);
        Assert.That(client.Send("late"), Is.EqualTo(0));
        Assert.That(await client.SendAndWaitAsync("late"), Is.False);
        Assert.That(client.Disconnect(), Is.False);
        Assert.DoesNotThrow(() => client.Dispose());
    }

    [Test]
    public async Task ServerRestartAcceptsNewConnectionsOnTheSamePort()
    {
        using var server = StartServer();
        var endpoint = server.Endpoint.ToString();
        var first = await Connect(server);
        await Wait.For(server.Connected.Reaches(1), "first session connected");

        Assert.That(server.Restart(), Is.True);
        await Wait.For(first.Closed, "old client disconnected by the restart");
        Assert.That(server.ConnectedSessions, Is.EqualTo(0), "Stop waited for sessions to close");
        Assert.That(server.Endpoint.ToString(), Is.EqualTo(endpoint), "same endpoint after restart");

        var second = await Connect(server);
        second.SendAsync("again");
        await Wait.For(second.Received.Reaches(5), "echo after restart");
        second.Disconnect();
    }

    [Test]
    public async Task SendAsyncReturnsFalseWhenTheSendLimitIsReachedAndTheConnectionStaysOpen()
    {
        const int limit = 256 * 1024;
        using var server = StartServer(s =>
        {
            s.Echo = false;
            s.SessionSendLimit = limit;
        });
        // A synchronous Connect starts no receive loop, so this client never reads: the server's queue fills up.
        using var client = NewClient(server);
        Assert.That(client.Connect(), Is.True);
        await Wait.For(server.FirstConnected, "server OnConnected");
        var session = server.LastSession!;

        var chunk = new byte[64 * 1024];
        var accepted = 0L;
        var refused = false;
        for (var i = 0; i < 10_000 && !refused; i++)
        {
            if (session.SendAsync(chunk))
                accepted += chunk.Length;
            else
                refused = true;
        }
        Assert.That(refused, Is.True, "SendAsync refused once the peer stopped reading");
        Assert.That(session.LastError, Is.EqualTo(SocketError.NoBufferSpaceAvailable));
        Assert.That(session.BytesPending + session.BytesSending, Is.LessThanOrEqualTo(limit));
        Assert.That(session.IsConnected, Is.True, "refusal does not disconnect");

        // Once the client reads, everything accepted arrives.
        client.ReceiveAsync();
        await Wait.For(client.Received.Reaches(accepted), $"{accepted} accepted bytes delivered");
    }

    [Test]
    public async Task AnOptionWrittenOnARunningSessionAppliesToThatSessionAlone()
    {
        // Sessions start from their server's options and share them until one writes its own.
        const int limit = 64 * 1024;
        using var server = StartServer(s => s.Echo = false);
        // Synchronous connects start no receive loop: these clients never read, so what a session sends stays queued.
        using var first = NewClient(server);
        using var second = NewClient(server);
        Assert.That(first.Connect(), Is.True);
        Assert.That(second.Connect(), Is.True);
        await Wait.For(server.Connected.Reaches(2), "two sessions connected");
        var sessions = server.Sessions.ToArray();
        var limited = sessions[0].Session;
        var other = sessions[1].Session;
        var defaultLimit = other.OptionSendBufferLimit;

        limited.OptionSendBufferLimit = limit;

        Assert.That(limited.OptionSendBufferLimit, Is.EqualTo(limit));
        Assert.That(other.OptionSendBufferLimit, Is.EqualTo(defaultLimit), "the other session keeps its limit");
        var chunk = new byte[2 * limit];
        Assert.That(limited.SendAsync(chunk), Is.False, "the running session refuses more than its new limit");
        Assert.That(other.SendAsync(chunk), Is.True, "the other session accepts it");

        using var third = NewClient(server);
        Assert.That(third.Connect(), Is.True);
        await Wait.For(server.Connected.Reaches(3), "a third session connected");
        Assert.That(server.Sessions.Last().Session.OptionSendBufferLimit, Is.EqualTo(defaultLimit), "a new session starts from the server's options");
    }

    [Test]
    public async Task ConcurrentSendsFromManyThreadsKeepEveryMessageWhole()
    {
        const int threads = 8;
        const int perThread = 2000;
        const int messageSize = 16;
        var received = new List<byte>();
        using var server = StartServer(s =>
        {
            s.Echo = false;
            s.OnData = (_, buffer, offset, size) =>
            {
                lock (received)
                    received.AddRange(new ArraySegment<byte>(buffer, (int)offset, (int)size));
            };
        });
        using var client = await Connect(server);

        using var start = new Barrier(threads);
        var workers = Enumerable.Range(0, threads).Select(t => Task.Run(() =>
        {
            start.SignalAndWait();
            var message = new byte[messageSize];
            for (var i = 0; i < perThread; i++)
            {
                BitConverter.TryWriteBytes(message.AsSpan(0, 4), t);
                BitConverter.TryWriteBytes(message.AsSpan(4, 4), i);
                message.AsSpan(8).Fill((byte)(t + i));
                // Mix the queued and the blocking API; both must keep messages whole and in per-thread order.
                if (i % 2 == 0)
                    Assert.That(client.SendAsync(message), Is.True);
                else
                    Assert.That(client.Send(message), Is.EqualTo(messageSize));
            }
        })).ToArray();
        await Wait.For(Task.WhenAll(workers), "all sending threads finished");
        await Wait.For(server.Received.Reaches(threads * perThread * messageSize), "every byte received");

        byte[] all;
        lock (received)
            all = received.ToArray();
        var next = new int[threads];
        for (var offset = 0; offset < all.Length; offset += messageSize)
        {
            var t = BitConverter.ToInt32(all, offset);
            var i = BitConverter.ToInt32(all, offset + 4);
            Assert.That(i, Is.EqualTo(next[t]), $"message order of thread {t}");
            Assert.That(all.AsSpan(offset + 8, 8).ToArray().All(b => b == (byte)(t + i)), Is.True, "message body intact");
            next[t]++;
        }
        Assert.That(next, Is.All.EqualTo(perThread));
    }

    [Test]
    public async Task GracefulDisconnectDeliversEverythingAlreadyAccepted()
    {
        using var server = StartServer(s => s.Echo = false);
        using var client = await Connect(server);
        await Wait.For(server.FirstConnected, "server OnConnected");
        var session = server.LastSession!;
        var payload = new byte[8 * 1024 * 1024];
        new Random(7).NextBytes(payload);
        Assert.That(session.SendAsync(payload), Is.True);
        Assert.That(session.Disconnect(), Is.True);
        Assert.That(session.SendAsync(payload), Is.False, "no sends accepted after Disconnect");

        await Wait.For(client.Closed, "client sees the end of the stream");
        Assert.That(client.Data(), Is.EqualTo(payload), "all 8 MiB queued before Disconnect arrived");
        await Wait.For(session.Closed, "session OnDisconnected");
        Assert.That(session.DisconnectReason, Is.EqualTo(DisconnectReason.Local));
    }

    [Test]
    public async Task SendAndWaitAsyncCompletesWhenTheDataIsHandedToTheSocket()
    {
        using var server = StartServer();
        using var client = await Connect(server);
        Assert.That(await Wait.For(client.SendAndWaitAsync(new byte[1024 * 1024]), "SendAndWaitAsync"), Is.True);
        Assert.That(client.BytesSent, Is.EqualTo(1024 * 1024));
        Assert.That(await Wait.For(client.FlushAsync(), "FlushAsync"), Is.True);
    }

    [Test]
    public async Task AThrowingHookClosesOnlyItsOwnConnection()
    {
        using var server = StartServer(s => s.OnData = (_, buffer, offset, _) =>
        {
            if (buffer[offset] == (byte)'!')
                throw new InvalidOperationException("handler bug");
        });
        using var bad = await Connect(server);
        using var good = await Connect(server);
        bad.SendAsync("!boom");
        await Wait.For(bad.Closed, "the connection whose hook threw is closed");
        good.SendAsync("fine");
        await Wait.For(good.Received.Reaches(4), "the other connection still works");
        await Wait.For(server.Disconnected.Reaches(1), "server saw the failed session go");
        Assert.That(server.Log.Snapshot(), Does.Contain("session.OnDisconnected"));
    }

    [Test]
    public async Task OneHundredThousandTinySendsCompleteWithoutRecursion()
    {
        using var server = StartServer();
        using var client = await Connect(server);
        var one = new byte[] { 42 };
        for (var i = 0; i < 100_000; i++)
            Assert.That(client.SendAsync(one), Is.True);
        await Wait.For(client.Received.Reaches(100_000), "100,000 echoed bytes");
        Assert.That(client.Data(), Is.All.EqualTo(42));
    }

    [Test]
    public async Task ConnectingToAClosedPortRaisesOnDisconnectedAndReturnsFalse()
    {
        EndPoint nobody;
        // Bound and not listening for the whole test: connects are refused, and no other test can take the port.
        using var probe = new Socket(_address.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        if (_transport.IsUnix)
        {
            nobody = new UnixDomainSocketEndPoint(UdsTestTransport.NewPath());
        }
        else
        {
            probe.Bind(new IPEndPoint(_address, 0));
            nobody = new IPEndPoint(_address, ((IPEndPoint)probe.LocalEndPoint!).Port);
        }
        using var closed = new TestServer(_transport, _address);
        using var client = new TestClient(_transport, closed, nobody);
        Assert.That(await Wait.For(client.ConnectAndWaitAsync(), "refused connect"), Is.False);
        await Wait.For(client.Closed, "OnDisconnected after a failed connect");
        Assert.That(client.Errors.Value, Is.EqualTo(0), "nobody listening is an ordinary failure, not an OnError");
        Assert.That(client.Connect(), Is.False, "sync connect refused too");
        Assert.That(client.IsConnected, Is.False);
    }

    [Test]
    public async Task ThousandConnectDisconnectCyclesLeaveNoSessionOrSocketBehind()
    {
        using var server = StartServer();
        using (var warm = await Connect(server))
        {
            await Wait.For(server.Connected.Reaches(1), "warm-up session accepted");
            Assert.That(OpenSockets.On(server.Endpoint), Is.GreaterThan(0), "the probe sees a live connection");
            warm.Disconnect();
        }
        await Wait.For(server.Disconnected.Reaches(1), "warm-up session closed");

        for (var i = 0; i < 1000; i++)
        {
            using var client = NewClient(server);
            Assert.That(await client.ConnectAndWaitAsync(), Is.True, $"cycle {i} connected");
            if (i % 2 == 0)
                Assert.That(client.Disconnect(), Is.True);
            else
                await Wait.For(client.DisconnectAndWaitAsync(), $"cycle {i} disconnect");
        }
        await Wait.For(server.Disconnected.Reaches(1001), "all 1,001 sessions closed");
        await Wait.Until(() => server.ConnectedSessions == 0, "no session left registered (a session leaves the table after its OnDisconnected)");
        Assert.That(OpenSockets.On(server.Endpoint), Is.EqualTo(0), "no connection on the server's endpoint left open");
    }

    [Test]
    public async Task ServerStopDisconnectsEverySessionAndReportsStopHooks()
    {
        var server = StartServer();
        var clients = new List<TestClient>();
        for (var i = 0; i < 5; i++)
        {
            var client = await Connect(server);
            client.SendAsync("data in both directions before the stop");
            clients.Add(client);
        }
        await Wait.For(server.Connected.Reaches(5), "5 sessions connected");
        foreach (var client in clients)
            await Wait.For(client.Received.Reaches(39), "echo before the stop");
        Assert.That(server.Stop(), Is.True);
        Assert.That(server.IsStarted, Is.False);
        Assert.That(server.ConnectedSessions, Is.EqualTo(0));
        foreach (var client in clients)
        {
            await Wait.For(client.Closed, "client disconnected by Stop");
            Assert.That(client.DisconnectReason, Is.EqualTo(DisconnectReason.PeerClosed), "a graceful stop is an end of stream, not a reset");
            Assert.That(client.Errors.Value, Is.EqualTo(0));
        }
        Assert.That(server.Stop(), Is.False, "second Stop is a no-op");
        Assert.That(server.Multicast("x"), Is.False, "Multicast on a stopped server");
        server.Dispose();
    }

    [Test]
    public async Task BlockingSendFromInsideOnSentDoesNotWaitOnItself()
    {
        using var server = StartServer(s => s.Echo = false);
        using var client = NewClient(server);
        var remaining = 200;
        // The blocking Send from inside OnSent would deadlock if Send waited on its own send loop.
        client.OnSentHook = c =>
        {
            if (Interlocked.Decrement(ref remaining) >= 0)
                c.Send(new byte[10]);
        };
        Assert.That(await Wait.For(client.ConnectAndWaitAsync(), "connect"), Is.True);
        client.SendAsync(new byte[10]);
        await Wait.For(server.Received.Reaches(10 * 201), "the first send and 200 blocking sends made from OnSent");
    }

}
