using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Testing;
using NetCoreServer.Transports;
using NUnit.Framework;

namespace NetCoreServer.Tests.Sockets;

/// <summary>
/// <see cref="EventLoops.MaxThreads"/>: hooks that block take threads until the cap; past it a loop whose hook blocks
/// waits, its connections stalled, until a blocked hook returns and its thread takes the loop. The cap is process-wide,
/// so this fixture runs alone.
/// </summary>
[TestFixture]
[NonParallelizable]
[Category(TestLeg.Isolated)]
public sealed class EventLoopThreadCapTests
{
    private static readonly TimeSpan Deadline = TimeSpan.FromSeconds(10);

    [SetUp]
    public void LinuxOnly()
    {
        if (!OperatingSystem.IsLinux())
            Assert.Ignore("event loops are Linux only");
    }

    /// <summary>A one-loop echo server whose sessions block in OnReceived on "block", one let go per <see cref="Release"/> count.</summary>
    private sealed class BlockingServer() : TcpServer(IPAddress.Loopback, 0)
    {
        public readonly SemaphoreSlim Release = new(0);

        public int Blocked;

        public int BoundPort => ((IPEndPoint)Endpoint).Port;

        protected override TcpSession CreateSession() => new BlockingSession(this);
    }

    private sealed class BlockingSession(BlockingServer server) : TcpSession(server)
    {
        protected override void OnReceived(byte[] buffer, long offset, long size)
        {
            if (Encoding.ASCII.GetString(buffer, (int)offset, (int)size) != "block")
            {
                SendAsync(buffer, offset, size);
                return;
            }
            Interlocked.Increment(ref server.Blocked);
            // Bounded: a failed test must not leave the process-wide loop's threads blocked for the fixtures after it.
            server.Release.Wait(TimeSpan.FromSeconds(60));
        }
    }

    private static async Task<Socket> ConnectAsync(int port)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await socket.ConnectAsync(IPAddress.Loopback, port);
        return socket;
    }

    /// <summary>Sends "ping" and waits at most <paramref name="within"/> for its echo; false when it did not come.</summary>
    private static async Task<bool> EchoesWithin(Socket socket, TimeSpan within)
    {
        await socket.SendAsync("ping"u8.ToArray(), SocketFlags.None);
        return await ReadsPing(socket, within);
    }

    private static async Task<bool> ReadsPing(Socket socket, TimeSpan within)
    {
        var answer = new byte[4];
        var read = 0;
        using var timeout = new CancellationTokenSource(within);
        try
        {
            while (read < answer.Length)
            {
                var n = await socket.ReceiveAsync(answer.AsMemory(read), SocketFlags.None, timeout.Token);
                if (n == 0)
                    return false;
                read += n;
            }
        }
        catch (OperationCanceledException)
        {
            return false;
        }
        return Encoding.ASCII.GetString(answer) == "ping";
    }

    [Test]
    public async Task PastTheThreadCapABlockedLoopWaitsUntilABlockedHookReturnsItsThread()
    {
        var cap = EventLoops.MaxThreads;
        using var server = new BlockingServer { OptionEventLoops = 1 };
        Assert.That(server.Start(), Is.True);
        var sockets = new List<Socket>();
        try
        {
            // Room for one more thread than the loops have now (spares included): a few handoffs, then the cap.
            EventLoops.MaxThreads = LoopThreads.Count + 1;
            Socket? stalled = null;
            // Each round blocks one more hook on the loop; bounded by the threads the cap allows, plus one.
            for (var round = 0; round <= EventLoops.MaxThreads + 1 && stalled == null; round++)
            {
                var socket = await ConnectAsync(server.BoundPort);
                sockets.Add(socket);
                // Two round trips: a session's first read may run on the accepting thread, the second is the loop's.
                if (!await EchoesWithin(socket, TimeSpan.FromSeconds(3)) || !await EchoesWithin(socket, TimeSpan.FromSeconds(3)))
                {
                    // The loop has no thread: the last blocked hook's handoff found none under the cap.
                    stalled = socket;
                    break;
                }
                await socket.SendAsync("block"u8.ToArray(), SocketFlags.None);
                await Wait.Until(() => Volatile.Read(ref server.Blocked) == round + 1, "the hook blocking", Deadline);
            }

            Assert.That(stalled, Is.Not.Null, "past the cap a loop whose hook blocks waits for a thread");
            Assert.That(LoopThreads.Count, Is.LessThanOrEqualTo(EventLoops.MaxThreads), "no thread made past the cap");
            server.Release.Release();
            Assert.That(await ReadsPing(stalled!, Deadline), Is.True, "served once a blocked hook returned and its thread took the loop");
        }
        finally
        {
            EventLoops.MaxThreads = cap;
            server.Release.Release(sockets.Count);
            foreach (var socket in sockets)
                socket.Dispose();
        }
    }
}
