using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NUnit.Framework;
using NetCoreServer.Buffers;
using NetCoreServer.Engine;

namespace NetCoreServer.Tests.Http;

/// <summary>
/// The memory an HTTP attack makes a server take is given back once the attackers leave (docs/guides/sending.md): the
/// large pool is emptied and the managed heap falls back. Alone, since the pool and the heap are the process's.
/// </summary>
[TestFixture]
[NonParallelizable]
[Category(TestLeg.Isolated)]
public sealed class HttpMemoryTests
{
    private const int MiB = 1024 * 1024;

    // A generous bound on the response head's length (status line, Content-Length, the default headers).
    private const int AnswerHead = 512;

    private sealed class BigServer() : HttpServer(IPAddress.Loopback, 0)
    {
        public static readonly byte[] Body = Enumerable.Range(0, MiB).Select(i => (byte)i).ToArray();

        public int Answered;

        protected override TcpSession CreateSession() => new BigSession(this);
    }

    private sealed class BigSession(BigServer server) : HttpSession(server)
    {
        protected override void OnReceivedRequest(HttpRequest request)
        {
            Interlocked.Increment(ref server.Answered);
            SendResponseAsync(Response.MakeGetResponse(BigServer.Body));
        }
    }

    [Test]
    public async Task ClientsPipeliningLargeAnswersAndNeverReadingLeaveNoPooledMemoryBehind()
    {
        using var server = new BigServer();
        server.Start();
        var port = ((IPEndPoint)server.Endpoint).Port;
        GC.Collect();
        var before = GC.GetTotalMemory(forceFullCollection: true);

        var requests = Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("GET /big HTTP/1.1\r\nHost: x\r\n\r\n", 50)));
        var sockets = new List<Socket>();
        for (var i = 0; i < 40; i++)
        {
            var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { ReceiveBufferSize = 64 * 1024 };
            await socket.ConnectAsync(IPAddress.Loopback, port);
            await socket.SendAsync(requests);
            sockets.Add(socket);
        }
        await Wait.Until(() => Volatile.Read(ref server.Answered) >= sockets.Count, "each connection answered its first request");
        // Held past the pool's idle time: its trim comes while the connections still hold their send queues.
        await Task.Delay(EngineBuffers.IdleBeforeTrim + TimeSpan.FromSeconds(1));
        var peak = GC.GetTotalMemory(forceFullCollection: false);
        // What the kernel took is out of the server's hands (its send buffer grows to tcp_wmem's maximum, 4 MiB here);
        // what the server keeps of its answers is bounded by its high watermark plus the one answer that crossed it.
        var answeredBytes = (long)server.Answered * (MiB + AnswerHead);
        var kept = answeredBytes - server.BytesSent;
        TestContext.Progress.WriteLine($"answered {server.Answered} requests of {sockets.Count} connections; {server.BytesSent / MiB} MiB in the kernel, {kept / MiB} MiB kept by the server");
        Assert.That(kept, Is.LessThanOrEqualTo(sockets.Count * (EngineOptions.DefaultSendHighWatermark + MiB + AnswerHead)), "no connection answers request after request for a client that does not read");

        foreach (var socket in sockets)
            socket.Close(0);
        await Wait.Until(() => server.ConnectedSessions == 0, "every session closed");
        await Wait.Until(() => EngineBuffers.PooledBytes == 0, "the large pool emptied after the clients left", TimeSpan.FromSeconds(15));

        // Collected by the pool's own collection after the burst, not by the test's.
        await Wait.Until(() => GC.GetTotalMemory(forceFullCollection: false) < before + 32L * MiB, "the managed heap back near where it was", TimeSpan.FromSeconds(15));
        var after = GC.GetTotalMemory(forceFullCollection: false);
        TestContext.Progress.WriteLine($"managed heap: {before / MiB} MiB before, {peak / MiB} MiB at the peak, {after / MiB} MiB after");
    }
}
