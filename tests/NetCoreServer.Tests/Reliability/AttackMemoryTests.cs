using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Tests.Http;
using NetCoreServer.Tests.WebSockets;
using NetCoreServer.Tests.WebSockets.Live;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.Reliability;

/// <summary>
/// Issue 35: the memory an attack makes a server hold is given back within seconds of the attackers leaving, whatever
/// the size of the buffers that held it (docs/design/engine-buffers.md has the full-scale figures). The attacks here are
/// scaled down; the bound is the process's RSS. Alone, since the heap and the engine's pools are the process's.
/// </summary>
[TestFixture(0)]
[TestFixture(2)]
[NonParallelizable]
[Category(TestLeg.Isolated)]
public sealed class AttackMemoryTests(int eventLoops)
{
    private const long MiB = 1024 * 1024;

    /// <summary>What the attack must have made the server hold, so that a server that keeps it fails the test.</summary>
    private const long Held = 120 * MiB;

    /// <summary>
    /// What may stay above the RSS before the attack: the engine asks for a collection once 64 MiB of its buffers are
    /// garbage, and the runtime keeps a little committed.
    /// </summary>
    private const long Slack = 64 * MiB;

    /// <summary>How soon after the last client left the RSS must be back: the engine's idle time and settling (3 s) plus room for a loaded machine.</summary>
    private static readonly TimeSpan Soon = TimeSpan.FromSeconds(10);

    [Test]
    public async Task MemoryHeldForClientsPipeliningSmallAnswersWithoutReadingIsGivenBackOnceTheyLeave()
    {
        using var tree = new TempTree();
        tree.WriteBytes("index.html", Enumerable.Range(0, 4096).Select(i => (byte)('a' + i % 26)).ToArray());
        using var server = new HttpServer(IPAddress.Loopback, 0) { OptionEventLoops = eventLoops };
        server.AddStaticContent(tree.Www, "/");
        server.Start();
        var port = ((IPEndPoint)server.Endpoint).Port;
        var baseline = Baseline();

        var requests = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n", 4000)));
        var sockets = new List<Socket>();
        try
        {
            for (var i = 0; i < 200; i++)
            {
                var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { ReceiveBufferSize = 16 * 1024 };
                sockets.Add(socket);
                await socket.ConnectAsync(IPAddress.Loopback, port);
                // Not awaited: a server that stops reading may leave the send waiting; closing the socket ends it.
                _ = socket.SendAsync(requests).ContinueWith(static t => t.Exception, TaskScheduler.Default);
            }
            await Wait.Until(() => Environment.WorkingSet > baseline + Held, $"the server holding over {Held / MiB} MiB for clients that do not read");
        }
        finally
        {
            foreach (var socket in sockets)
                socket.Close(0);
        }
        await Wait.Until(() => server.ConnectedSessions == 0, "every session closed");
        await ExpectRssBackNear(baseline);
    }

    [Test]
    public async Task MemoryHeldForUnfinishedWebSocketMessagesIsGivenBackOnceTheClientsLeave()
    {
        using var server = new WsServer(IPAddress.Loopback, 0) { OptionEventLoops = eventLoops };
        server.Start();
        var port = ((IPEndPoint)server.Endpoint).Port;
        var baseline = Baseline();

        // A binary frame without FIN: the first fragment of a message that never ends.
        var fragment = WsTestFrames.Frame(0x02, new byte[2 * MiB], RawWsClient.Mask());
        var transport = eventLoops > 0 ? WsTransport.Ws : WsTransport.WsPool;
        var clients = new List<RawWsClient>();
        try
        {
            for (var i = 0; i < 80; i++)
            {
                var client = await RawWsClient.UpgradeAsync(transport, port);
                clients.Add(client);
                await client.SendAsync(fragment);
            }
            await Wait.Until(() => Environment.WorkingSet > baseline + Held, $"the server holding over {Held / MiB} MiB of unfinished messages");
        }
        finally
        {
            foreach (var client in clients)
                client.Dispose();
        }
        await Wait.Until(() => server.ConnectedSessions == 0, "every session closed");
        await ExpectRssBackNear(baseline);
    }

    /// <summary>The RSS before the attack, with earlier tests' garbage collected so that it is not mistaken for the attack's.</summary>
    private static long Baseline()
    {
        GC.Collect(2, GCCollectionMode.Aggressive, blocking: true, compacting: true);
        return Environment.WorkingSet;
    }

    private static async Task ExpectRssBackNear(long baseline)
    {
        var limit = baseline + Slack;
        var left = DateTime.UtcNow;
        // Polled: nothing in the server signals "memory given back"; no collection is asked for here.
        await Wait.Until(() => Environment.WorkingSet < limit, $"the RSS back under {limit / MiB} MiB (baseline {baseline / MiB} MiB + {Slack / MiB} MiB) after the clients left", Soon);
        TestContext.Progress.WriteLine($"RSS {baseline / MiB} MiB before, {Environment.WorkingSet / MiB} MiB {(DateTime.UtcNow - left).TotalSeconds:F1} s after the clients left");
    }
}
