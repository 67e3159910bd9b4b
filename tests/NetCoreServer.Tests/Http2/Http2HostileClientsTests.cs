using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Http;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Buffers;
using NetCoreServer.Protocols.Http2;
using NUnit.Framework;
using DotNetHttpClient = System.Net.Http.HttpClient;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// Each of the hostile HTTP/2 clients (<see cref="Http2Attack"/>) against a server that others use meanwhile.
/// While eight attackers repeat their attack, a well-behaved HTTP/2 client and an HTTP/1.1 client (.NET's HttpClient,
/// on connections of their own) get every answer, each within a generous deadline; each attack gets the RFC's answer
/// (GOAWAY ENHANCE_YOUR_CALM, RST_STREAM REFUSED_STREAM, a stalled connection closed); and with eight attackers at
/// their worst, the server's managed heap holds at most a fixed bound per attacking connection (a stalled one: twice
/// the answers its peer asked for). Alone in a process of its own (the heap is the whole process's).
/// </summary>
[TestFixture]
[NonParallelizable]
[Category(TestLeg.Isolated)]
public sealed class Http2HostileClientsTests : Http2ServerFixture
{
    private const int Attackers = 8;

    // Requests of each well-behaved client while the attack goes on.
    private const int Requests = 20;

    // What one attacking connection may make the server hold beyond an idle connection's own state: a header block at
    // the 32 KiB bound, a hundred open streams with their requests. Without the limits, a CONTINUATION flood holds its
    // 2 MiB, a thousand open streams about ten times a hundred.
    private const int PerAttacker = 256 * 1024;

    // Generous on a loaded 2-core machine: an answer late by this much is a server that stopped serving.
    private static readonly TimeSpan s_answerDeadline = TimeSpan.FromSeconds(10);

    // A stalled connection is closed after the keep-alive timeout; short here, so that the attack repeats.
    private static readonly TimeSpan s_stallTimeout = TimeSpan.FromSeconds(1);

    [TestCase(Http2Attack.RapidReset)]
    [TestCase(Http2Attack.ContinuationFlood)]
    [TestCase(Http2Attack.SettingsFlood)]
    [TestCase(Http2Attack.PingFlood)]
    [TestCase(Http2Attack.WindowUpdateFlood)]
    [TestCase(Http2Attack.EmptyDataFlood)]
    [TestCase(Http2Attack.WindowNeverOpened)]
    [TestCase(Http2Attack.StreamOverflow)]
    public async Task OtherClientsAreServedAndTheHeapStaysBoundedDuring(Http2Attack attack)
    {
        if (attack == Http2Attack.WindowNeverOpened)
            Server.Http.KeepAliveTimeout = s_stallTimeout;
        var frames = Http2Floods.Build(attack, Server.Http.Http2MaxConcurrentStreams);
        var url = $"http://127.0.0.1:{((IPEndPoint)Server.Endpoint).Port}/hello";
        using var http2 = new DotNetHttpClient { DefaultRequestVersion = HttpVersion.Version20, DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact };
        using var http11 = new DotNetHttpClient { DefaultRequestVersion = HttpVersion.Version11, DefaultVersionPolicy = HttpVersionPolicy.RequestVersionExact };
        await Serve(http2, url, "warm-up");
        await Serve(http11, url, "warm-up");

        // The attackers repeat their attack (a new connection each time) until both clients have had every answer, each
        // request sent after one more attack has been answered: the clients are served all through the attack. This
        // also fills the shared array pool with what the attack's connections rent, so that the heap counted next
        // holds the attackers' state, not the pool's fill (which depends on how many rented at once: up to 32 arrays a
        // size a core; a run on a loaded machine once counted that).
        var served = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var answeredAttacks = new SemaphoreSlim(0);
        var attacking = Enumerable.Range(0, Attackers).Select(_ => AttackUntil(served.Task, answeredAttacks, attack, frames)).ToArray();
        try
        {
            for (var i = 0; i < Requests; i++)
            {
                await NextAttack(answeredAttacks, attacking, i);
                await Serve(http2, url, $"request {i} under {attack}");
                await Serve(http11, url, $"request {i} under {attack}");
            }
        }
        finally
        {
            served.TrySetResult();
        }
        var rounds = await Task.WhenAll(attacking);
        TestContext.Out.WriteLine($"{attack}: {rounds.Sum()} attacks while {2 * Requests} requests were served");

        // Then eight attackers at their worst at once: held open where the attack holds its connection, else until the
        // server has read every byte or ended the connection; the heap is counted then.
        var sessions = Server.ConnectedSessions;
        var attackers = await Task.WhenAll(Enumerable.Range(0, Attackers).Select(_ => Connect()));
        try
        {
            var before = Held();
            var (received, sent) = (Server.BytesReceived, Server.BytesSent);
            var answered = attackers.Select(attacker => Attack(attacker, attack, frames)).ToArray();
            long grown, bound;
            if (attack == Http2Attack.WindowNeverOpened)
            {
                // At the stall, the server holds the answers the attackers asked for; no body goes past the window.
                await Wait.Until(() => Server.BytesSent - sent >= Attackers * Http2Settings.DefaultInitialWindowSize, "every stalled connection's window sent");
                grown = Held() - before;
                bound = Attackers * (2L * Http2Floods.StalledStreams * Http2Floods.StalledBody + PerAttacker);
            }
            else
            {
                // A stream overflow is answered stream by stream: once every stream past the limit is refused, the server
                // has read it all and holds the streams it allowed.
                if (attack == Http2Attack.StreamOverflow)
                    await Wait.For(Task.WhenAll(answered), "every stream past the limit refused");
                else
                    await Wait.Until(() => answered.All(t => t.IsCompleted) || Server.BytesReceived - received >= (long)Attackers * frames.Length,
                        "the server read every attacker's frames or ended their connections");
                grown = Held() - before;
                bound = Attackers * PerAttacker;
            }
            TestContext.Out.WriteLine($"{attack}: the server holds {grown / 1024} KiB more with {Attackers} attackers ({frames.Length} bytes each)");
            Assert.That(grown, Is.LessThan(bound), $"the heap the server holds for {Attackers} attackers doing {attack} (KiB: {grown / 1024})");
            await Wait.For(Task.WhenAll(answered), $"every attacker's answer to {attack}");
            if (attack == Http2Attack.WindowNeverOpened)
                await Wait.Until(() => Server.ConnectedSessions <= sessions, "the stalled sessions ended by the server");
        }
        finally
        {
            foreach (var attacker in attackers)
                attacker.Dispose();
        }
    }

    // The managed heap, less the engine's pool of idle receive buffers: the pool gives them back after
    // EngineBuffers.IdleBeforeTrim (HttpMemoryTests checks that), and it fills as the floods make receive buffers grow.
    private static long Held()
    {
        for (var i = 0; ; i++)
        {
            var pooled = EngineBuffers.PooledBytes;
            var heap = Http2MemoryTests.Heap();
            // Read again when the pool was trimmed meanwhile.
            if (EngineBuffers.PooledBytes == pooled || i == 3)
                return heap - pooled;
        }
    }

    // One request of a well-behaved client: 200 and its body, within the deadline.
    private static async Task Serve(DotNetHttpClient client, string url, string what)
    {
        var version = client.DefaultRequestVersion;
        using var response = await Wait.For(client.GetAsync(url), $"HTTP/{version} {what} answered", s_answerDeadline);
        Assert.That(response.Version, Is.EqualTo(version), what);
        Assert.That(response.StatusCode, Is.EqualTo(HttpStatusCode.OK), what);
        Assert.That(await Wait.For(response.Content.ReadAsStringAsync(), $"HTTP/{version} {what} body", s_answerDeadline), Is.EqualTo("Hello, World!"), what);
    }

    // Attacks on a new connection each time until `served` completes (a hundred times at most), releasing `answered`
    // after each attack answered; returns how many times.
    private async Task<int> AttackUntil(Task served, SemaphoreSlim answered, Http2Attack attack, byte[] frames)
    {
        var rounds = 0;
        while (rounds < 100 && !served.IsCompleted)
        {
            using var attacker = await Connect();
            await Attack(attacker, attack, frames);
            rounds++;
            answered.Release();
        }
        return rounds;
    }

    // Waits for one more attack answered; an attacker that failed fails the test with its own message.
    private static async Task NextAttack(SemaphoreSlim answered, Task<int>[] attacking, int i)
    {
        var next = answered.WaitAsync();
        await Wait.For(Task.WhenAny(next, Task.WhenAny(attacking)), $"attack {i} answered");
        foreach (var attacker in attacking.Where(t => t.IsFaulted))
            await attacker;
        await Wait.For(next, $"attack {i} answered");
    }

    // Sends the attack and reads the server's answer to it, checking its code.
    private async Task Attack(Http2RawClient attacker, Http2Attack attack, byte[] frames)
    {
        try
        {
            await attacker.SendRaw(frames);
        }
        catch (SocketException) when (attack == Http2Attack.ContinuationFlood)
        {
            // The server ended the connection while the flood was still going out.
        }
        switch (attack)
        {
            case Http2Attack.StreamOverflow:
                var allowed = Server.Http.Http2MaxConcurrentStreams;
                var opened = Http2Floods.OverflowFactor * allowed;
                for (var refused = 0; refused < opened - allowed; refused++)
                {
                    var frame = await attacker.ReadUntil(f => f.Type is Http2FrameType.RstStream or Http2FrameType.GoAway);
                    Assert.That((frame.Type, frame.ErrorCode), Is.EqualTo((Http2FrameType.RstStream, Http2ErrorCode.RefusedStream)), $"stream {frame.StreamId} past the limit");
                    Assert.That(frame.StreamId, Is.GreaterThan(2 * allowed), "the first streams, within the limit, stay open");
                }
                return;
            case Http2Attack.WindowNeverOpened:
                var skipped = new List<Http2ReceivedFrame>();
                var goAway = await attacker.ReadUntil(f => f.Type == Http2FrameType.GoAway, skipped);
                Assert.That(goAway.ErrorCode, Is.EqualTo(Http2ErrorCode.NoError), "a stalled connection is closed after the keep-alive timeout");
                Assert.That(skipped.Where(f => f.Type == Http2FrameType.Data).Sum(f => f.Payload.Length), Is.LessThanOrEqualTo(Http2Settings.DefaultInitialWindowSize),
                    "nothing past the connection's window was sent");
                await attacker.Closed();
                return;
            default:
                Assert.That(await attacker.GoAway(), Is.EqualTo(Http2ErrorCode.EnhanceYourCalm), attack.ToString());
                await attacker.Closed();
                return;
        }
    }
}
