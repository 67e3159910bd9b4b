using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Net;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.Lifecycle;

/// <summary>
/// For a bounded time, clients connect and disconnect from both sides while hooks block and other threads send,
/// multicast, disconnect everything and stop and restart the server; then every session's hooks are checked.
/// </summary>
[TestFixtureSource(typeof(LifecycleTests), nameof(LifecycleTests.Transports))]
[NonParallelizable]
[Category(TestLeg.Isolated)]
public sealed class LifecycleStressTests
{
    private const int MaxClients = 1500;

    private static readonly TimeSpan s_duration = TimeSpan.FromSeconds(4);

    private readonly TestTransport _transport;

    public LifecycleStressTests(TestTransport transport) => _transport = transport;

    /// <summary>The loops that sleep and block get threads of their own, so they cannot starve the pool the library's I/O runs on.</summary>
    private static Task Dedicated(Action loop) => Task.Factory.StartNew(loop, CancellationToken.None, TaskCreationOptions.LongRunning, TaskScheduler.Default);

    [Test]
    public async Task EverySessionSeesConnectedBeforeDisconnectedOnceAndNothingAfter()
    {
        var violations = new ConcurrentQueue<string>();
        var seed = Environment.TickCount;
        using var server = new TestServer(_transport, IPAddress.Loopback);
        server.OnSessionHook = (session, hook) =>
        {
            var random = Random.Shared;
            switch (hook)
            {
                case "OnConnecting":
                    session.Session.OptionDisconnectTimeout = TimeSpan.FromSeconds(1);
                    break;
                case "OnConnected" or "OnHandshaking" or "OnHandshaked":
                    // A hook that blocks a little widens every window.
                    if (random.Next(4) == 0)
                        Thread.Sleep(random.Next(3));
                    if (random.Next(8) == 0)
                        session.Send("hi");
                    if (random.Next(16) == 0)
                        session.Disconnect();
                    break;
            }
        };
        Assert.That(server.Start(), Is.True);
        if (server.Inner is TcpServer tcp)
            tcp.OptionReuseAddress = true;
        else if (server.Inner is SslServer ssl)
            ssl.OptionReuseAddress = true;

        var clients = new ConcurrentQueue<TestClient>();
        var deadline = Stopwatch.StartNew();
        bool Running() => deadline.Elapsed < s_duration;

        var connector = Task.Run(async () =>
        {
            var live = new List<TestClient>();
            // Bounded in count too: a stopped server refuses at once, and a refused connect must not spin.
            while (Running() && clients.Count < MaxClients)
            {
                var client = new TestClient(_transport, server);
                clients.Enqueue(client);
                live.Add(client);
                if (await Wait.For(client.ConnectAndWaitAsync(), $"connect of client {clients.Count}"))
                    client.SendAsync("data");
                else
                    await Task.Delay(5);
                if (live.Count > 12)
                {
                    var victim = live[Random.Shared.Next(live.Count)];
                    live.Remove(victim);
                    _ = Random.Shared.Next(2) == 0 ? victim.DisconnectAndWaitAsync() : Task.Run(victim.Disconnect);
                }
            }
            foreach (var client in live)
                await Wait.For(client.DisconnectAndWaitAsync(), $"client disconnect; its hooks: [{string.Join(", ", client.Log.Snapshot())}]");
        });

        var sender = Dedicated(() =>
        {
            while (Running())
            {
                var session = server.LastSession;
                if (session != null)
                {
                    session.SendAsync("x");
                    session.Send("y");
                }
                server.Multicast("m");
                Thread.Sleep(1);
            }
        });

        var disconnector = Dedicated(() =>
        {
            while (Running())
            {
                Thread.Sleep(30);
                server.LastSession?.Disconnect();
                if (Random.Shared.Next(4) == 0)
                    server.DisconnectAll();
            }
        });

        var stopper = Dedicated(() =>
        {
            var cycles = 0;
            while (Running())
            {
                Thread.Sleep(300);
                Assert.That(server.Stop(), Is.True, "Stop");
                cycles++;
                if (server.ConnectedSessions != 0)
                {
                    var open = server.Sessions.Where(session => session.Log.Snapshot().Length > 0 && !session.Closed.IsCompleted).Take(3)
                        .Select(session => $"[{string.Join(", ", session.Log.Snapshot())}] reason {session.DisconnectReason}");
                    violations.Enqueue($"{server.ConnectedSessions} sessions still registered after Stop #{cycles} (thread pool: {ThreadPool.ThreadCount} threads, {ThreadPool.PendingWorkItemCount} items queued); some of them: {string.Join("; ", open)}");
                }
                Assert.That(server.Start(), Is.True, "Start again");
            }
        });

        var limit = s_duration + Wait.Default;
        await Wait.For(stopper, "the Stop/Start loop ended", limit);
        await Wait.For(disconnector, "the disconnecting loop ended", limit);
        await Wait.For(sender, "the sending loop ended", limit);
        await Wait.For(connector, "the connecting loop ended", limit);
        Assert.That(server.Stop(), Is.True);
        Assert.That(server.ConnectedSessions, Is.EqualTo(0), "no session after the final Stop");
        foreach (var client in clients)
            await Wait.For(client.Client.DisconnectAndWaitAsync(), "client closed");

        var checkedSessions = 0;
        foreach (var session in server.Sessions)
        {
            var log = session.Log.Snapshot();
            if (log.Length == 0)
                continue; // refused before its hooks began (accepted while the server stopped)
            checkedSessions++;
            try
            {
                LifecycleTests.AssertLifecycle(log, "session");
            }
            catch (AssertionException e)
            {
                violations.Enqueue(e.Message);
            }
        }
        foreach (var client in clients)
        {
            var log = client.Log.Snapshot();
            if (!log.Contains("OnConnected"))
                continue; // a refused connect: OnDisconnected without OnConnected, as in NetCoreServer
            try
            {
                LifecycleTests.AssertLifecycle(log, "client");
            }
            catch (AssertionException e)
            {
                violations.Enqueue(e.Message);
            }
        }
        TestContext.Out.WriteLine($"{_transport}: {checkedSessions} sessions and {clients.Count} clients checked (seed {seed})");
        Assert.That(checkedSessions, Is.GreaterThan(20), "the run exercised many sessions; client logs: " + string.Join(" | ", clients.Take(40).Select(c => string.Join(",", c.Log.Snapshot()))));
        Assert.That(violations, Is.Empty, string.Join("\n", violations.Take(10)));
    }
}
