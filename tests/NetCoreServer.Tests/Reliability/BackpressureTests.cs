using System;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Engine;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Reliability;

/// <summary>Backpressure instead of loss, writability hooks, and the multicast slow-consumer policy, over every stream transport.</summary>
[TestFixtureSource(typeof(ReliabilityTransports), nameof(ReliabilityTransports.All))]
public sealed class BackpressureTests
{
    private const int Chunk = 64 * 1024;

    private readonly TestTransport _transport;

    public BackpressureTests(TestTransport transport) => _transport = transport;

    private TestServer StartServer(Action<TestServer>? configure = null)
    {
        var server = new TestServer(_transport, IPAddress.Loopback);
        configure?.Invoke(server);
        Assert.That(server.Start(), Is.True, "server starts");
        return server;
    }

    private static byte[] Pattern(long offset, int length)
    {
        var data = new byte[length];
        for (var i = 0; i < length; i++)
            data[i] = (byte)((offset + i) * 31 % 251);
        return data;
    }

    [Test]
    public async Task AFastWriterThatNeverReadsLosesNoByteBecauseTheEchoSessionStopsReading()
    {
        using var server = StartServer();
        // A synchronous Connect starts no receive loop: this client writes and does not read.
        using var client = new TestClient(_transport, server);
        Assert.That(client.Connect(), Is.True);
        await Wait.For(server.FirstConnected, "session connected");
        var session = server.LastSession!;

        // Write until the client's own send limit refuses: by then the server must have stopped reading.
        long accepted = 0;
        long peak = 0;
        for (var i = 0; i < 4096; i++)
        {
            if (!client.SendAsync(Pattern(accepted, Chunk)))
                break;
            accepted += Chunk;
            // Sending before pending: a batch the send loop takes between the two reads is then counted in neither,
            // where the other order can count it twice (one run of issue 36 saw the limit passed by exactly 64 KiB).
            peak = Math.Max(peak, session.BytesSending + session.BytesPending);
            if (i % 16 == 15)
                await Task.Delay(1);
        }
        Assert.That(accepted, Is.LessThan(4096L * Chunk), "the client's send limit was reached: the server stopped reading");
        Assert.That(session.IsConnected, Is.True);
        Assert.That(session.Session.IsWritable, Is.False, "the session is unwritable while its peer does not read");
        Assert.That(session.Log.Snapshot(), Has.Member("OnWritabilityChanged False"));
        Assert.That(session.Errors.Value, Is.EqualTo(0), "the echo never had a send refused");
        // One delivered chunk may be queued past the high watermark (1 MiB): it is at most the receive limit (1 MiB).
        Assert.That(peak, Is.LessThanOrEqualTo(2L * 1024 * 1024), "the session's queue stayed bounded");

        client.ReceiveAsync();
        await Wait.For(client.Received.Reaches(accepted), $"all {accepted} accepted bytes echoed", TimeSpan.FromSeconds(60));
        Assert.That(client.Data().AsSpan().SequenceEqual(Pattern(0, (int)accepted)), Is.True, "every byte came back, in order");
        await Wait.For(server.Received.Reaches(accepted), "the server read everything in the end");
        Assert.That(session.Session.IsWritable, Is.True, "writable again once the client read");
        var writability = session.Log.Snapshot().Where(e => e.StartsWith("OnWritabilityChanged", StringComparison.Ordinal)).ToArray();
        for (var i = 0; i < writability.Length; i++)
            Assert.That(writability[i], Is.EqualTo(i % 2 == 0 ? "OnWritabilityChanged False" : "OnWritabilityChanged True"), "reports alternate, starting with unwritable");
        Assert.That(writability[^1], Is.EqualTo("OnWritabilityChanged True"));
    }

    [Test]
    public async Task RefusedSendsAreReportedOncePerEpisodeNotOncePerCall()
    {
        using var server = StartServer(s =>
        {
            s.Echo = false;
            s.SessionSendLimit = 256 * 1024;
        });
        using var client = new TestClient(_transport, server);
        Assert.That(client.Connect(), Is.True);
        await Wait.For(server.FirstConnected, "session connected");
        var session = server.LastSession!;

        var refused = 0;
        long accepted = 0;
        for (var i = 0; i < 2000 && refused < 100; i++)
        {
            if (session.SendAsync(Pattern(accepted, 16 * 1024)))
                accepted += 16 * 1024;
            else
                refused++;
        }
        Assert.That(refused, Is.EqualTo(100), "a hundred sends were refused");
        // An episode ends when the queue drains to the low watermark; the kernel may take a few more MiB meanwhile.
        Assert.That(session.Errors.Value, Is.InRange(1, 5), "one OnError per episode, not one per refused send");
        Assert.That(session.LastError, Is.EqualTo(SocketError.NoBufferSpaceAvailable));

        client.ReceiveAsync();
        await Wait.For(client.Received.Reaches(accepted), "everything accepted arrives");
        Assert.That(client.Data().AsSpan().SequenceEqual(Pattern(0, (int)accepted)), Is.True, "no accepted byte was dropped");
    }

    [Test]
    public async Task MulticastDisconnectsASlowConsumerWithItsReasonAndTheOthersGetEveryMessage()
    {
        using var server = StartServer(s =>
        {
            s.Echo = false;
            s.SessionSendLimit = 256 * 1024;
            s.Options.OptionSlowConsumerPolicy = SlowConsumerPolicy.Disconnect;
        });
        using var reader = new TestClient(_transport, server);
        Assert.That(await Wait.For(reader.ConnectAndWaitAsync(), "reading client connect"), Is.True);
        using var slow = new TestClient(_transport, server);
        Assert.That(slow.Connect(), Is.True, "the slow client connects and never reads");
        await Wait.For(server.Connected.Reaches(2), "both sessions connected");
        // Sessions are made in accept order: the reader connected (and was accepted) first.
        var slowSession = server.Sessions.ElementAt(1);
        var message = Pattern(0, 16 * 1024);
        long sent = 0;
        for (var i = 0; i < 2000 && !slowSession.Closed.IsCompleted; i++)
        {
            Assert.That(server.Multicast(message), Is.True);
            sent += message.Length;
            await Wait.For(reader.Received.Reaches(sent), "the reading client keeps up");
        }
        await Wait.For(slowSession.Closed, "the slow consumer was disconnected");
        Assert.That(slowSession.DisconnectReason, Is.EqualTo(DisconnectReason.SlowConsumer));
        Assert.That(server.Options.SlowConsumerEpisodes, Is.EqualTo(1), "one slow-consumer episode counted: the disconnect");
        Assert.That(server.Options.SkippedMulticasts, Is.EqualTo(1), "the one message it was refused is counted as skipped");
        Assert.That(slowSession.SlowConsumers.Value, Is.Zero, "OnSlowConsumer is for sessions that stay (Skip)");
        Assert.That(reader.IsConnected, Is.True, "the reading client stays");
        Assert.That(server.Multicast(message), Is.True);
        sent += message.Length;
        await Wait.For(reader.Received.Reaches(sent), "the reader gets the next message too");
        var data = reader.Data();
        for (var offset = 0; offset < data.Length; offset += message.Length)
            Assert.That(data.AsSpan(offset, message.Length).SequenceEqual(message), Is.True, $"message at {offset} whole");
    }

    [Test]
    public async Task MulticastSkipsASlowConsumerByDefaultAndReportsItThroughOnSlowConsumerAndCountersNotOnError()
    {
        // The default send limit (16 MiB), not set by the user: NetCoreServer has none by default, so raises no OnError.
        using var server = StartServer(s => s.Echo = false);
        using var slow = new TestClient(_transport, server);
        Assert.That(slow.Connect(), Is.True, "the slow client connects and does not read yet");
        await Wait.For(server.Connected.Reaches(1), "session connected");
        var session = server.LastSession!;
        const int messages = 768;
        var message = Pattern(0, Chunk);
        for (var i = 0; i < messages; i++)
            Assert.That(server.Multicast(message), Is.True);
        Assert.That(session.IsConnected, Is.True, "skipping keeps the session");
        Assert.That(session.BytesPending + session.BytesSending, Is.LessThanOrEqualTo(16L * 1024 * 1024), "memory within the default send limit");
        Assert.That(session.Errors.Value, Is.Zero, "no OnError: the user set no send limit");
        Assert.That(session.SlowConsumers.Value, Is.InRange(1, 20), "OnSlowConsumer once per episode, not once per skipped message");
        Assert.That(server.Options.SlowConsumerEpisodes, Is.EqualTo(session.SlowConsumers.Value), "the server counts each episode");

        // What the client gets plus what the server counts as skipped is everything multicast.
        slow.ReceiveAsync();
        await Wait.Until(() => session.BytesPending + session.BytesSending == 0, "the session's queue drained");
        await Wait.For(slow.Received.Reaches(session.Session.BytesSent), "the client read everything the session sent");
        var data = slow.Data();
        Assert.That(data.Length % Chunk, Is.Zero, "whole messages only");
        for (var offset = 0; offset < data.Length; offset += Chunk)
            Assert.That(data.AsSpan(offset, Chunk).SequenceEqual(message), Is.True, $"message at {offset} whole");
        var received = data.Length / Chunk;
        Assert.That(received, Is.LessThan(messages), "the slow consumer missed messages");
        Assert.That(server.Options.SkippedMulticasts, Is.EqualTo(messages - received), "every message it missed is counted as skipped");
    }

    [Test]
    public async Task AnOnSlowConsumerThatThrowsClosesItsSessionAndNeverTheMulticastCall()
    {
        using var server = StartServer(s =>
        {
            s.Echo = false;
            s.SessionSendLimit = 256 * 1024;
            s.OnSessionHook = (_, hook) =>
            {
                if (hook == "OnSlowConsumer")
                    throw new InvalidOperationException("the user's OnSlowConsumer failed");
            };
        });
        using var slow = new TestClient(_transport, server);
        Assert.That(slow.Connect(), Is.True, "the slow client connects and never reads");
        await Wait.For(server.Connected.Reaches(1), "session connected");
        var session = server.LastSession!;
        var message = Pattern(0, 16 * 1024);
        for (var i = 0; i < 2000 && !session.Closed.IsCompleted; i++)
            Assert.That(server.Multicast(message), Is.True, "Multicast neither throws nor fails for a session's hook");
        await Wait.For(session.Closed, "the session whose OnSlowConsumer threw was closed");
        Assert.That(session.DisconnectReason, Is.EqualTo(DisconnectReason.HandlerException));
        Assert.That(session.SlowConsumers.Value, Is.EqualTo(1));
    }

    [Test]
    public async Task MulticastReportsASlowConsumerThroughOnErrorTooWhenItsSendLimitWasSet()
    {
        using var server = StartServer(s =>
        {
            s.Echo = false;
            s.SessionSendLimit = 256 * 1024;
        });
        using var slow = new TestClient(_transport, server);
        Assert.That(slow.Connect(), Is.True, "the slow client connects and never reads");
        await Wait.For(server.Connected.Reaches(1), "session connected");
        var session = server.LastSession!;
        var message = Pattern(0, 16 * 1024);
        for (var i = 0; i < 2000; i++)
            Assert.That(server.Multicast(message), Is.True);
        Assert.That(session.IsConnected, Is.True, "skipping keeps the session");
        // 32 MiB multicast: what the kernel buffers and the 256 KiB queue took is far less, the rest was skipped.
        var taken = (session.Session.BytesSent + session.BytesPending + session.BytesSending) / message.Length;
        Assert.That(taken, Is.LessThan(1000), "most of the 2,000 messages were skipped");
        Assert.That(session.Errors.Value, Is.InRange(1, 20), "a handful of reports (one per episode), not one per skipped message");
        Assert.That(session.LastError, Is.EqualTo(SocketError.NoBufferSpaceAvailable));
        Assert.That(session.SlowConsumers.Value, Is.EqualTo(session.Errors.Value), "OnSlowConsumer and OnError once each per episode");
        Assert.That(server.Options.SkippedMulticasts, Is.GreaterThanOrEqualTo(1000), "the skipped messages are counted");
        Assert.That(session.BytesPending + session.BytesSending, Is.LessThanOrEqualTo(256 * 1024), "memory within the send limit");
    }

    [Test]
    public async Task MulticastToASessionThatAlsoSendsByItselfPassesItsLimitByAnEighthAtMost()
    {
        const int limit = 256 * 1024;
        using var server = StartServer(s =>
        {
            s.Echo = false;
            s.SessionSendLimit = limit;
        });
        using var slow = new TestClient(_transport, server);
        Assert.That(slow.Connect(), Is.True, "the slow client connects and never reads");
        await Wait.For(server.Connected.Reaches(1), "session connected");
        var session = server.LastSession!;
        var message = Pattern(0, 1024);
        var own = Pattern(0, 4096);
        long ownAccepted = 0;
        long peak = 0;
        for (var i = 0; i < 4000; i++)
        {
            Assert.That(server.Multicast(message), Is.True);
            // The session's own sends between multicasts: the multicast asks the limit only once per credit.
            if (session.Session.SendAsync(own))
                ownAccepted++;
            // Sending before pending: a batch the send loop takes between the two reads is then counted in neither,
            // where the other order can count it twice (one run of issue 36 saw the limit passed by exactly 64 KiB).
            peak = Math.Max(peak, session.BytesSending + session.BytesPending);
        }
        Assert.That(session.IsConnected, Is.True, "skipping keeps the session");
        Assert.That(ownAccepted, Is.GreaterThan(0), "some of the session's own sends were accepted");
        Assert.That(peak, Is.LessThanOrEqualTo(limit + limit / 8), "queued bytes passed the limit by an eighth at most");
    }
}
