using System;
using System.Collections.Generic;
using System.Linq;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Http2;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// What an idle HTTP/2 connection costs the server, against an idle HTTP/1.1 connection of the same server: connections
/// that each made one request and then wait, counted on the managed heap after a full collection. Alone (not in
/// parallel with other tests), since the heap is the whole process's.
/// </summary>
[TestFixture]
[NonParallelizable]
public sealed class Http2MemoryTests
{
    private const int Connections = 200;

    [Test]
    public async Task AnIdleHttp2ConnectionCostsLittleMoreThanAnHttp11One()
    {
        using var server = new Http2TestServer();
        server.Start();
        var http11 = "GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n"u8.ToArray();
        var block = HpackTesting.Encode(new HpackEncoder(), [(":method", "GET"), (":scheme", "http"), (":authority", "localhost"), (":path", "/hello")]);
        byte[] http2 = [
            .. Http2Preface.Client.ToArray(),
            .. Http2RawClient.Frame(b => Http2FrameWriter.WriteSettings(b, [])),
            .. Http2RawClient.Frame(b => Http2FrameWriter.WriteSettingsAck(b)),
            .. Http2RawClient.Frame(b => Http2FrameWriter.WriteHeaders(b, 1, block, endStream: true, Http2Settings.MinMaxFrameSize))];

        // Warm-up, not counted: the first connections of each kind pay for statics, the JIT and the pools.
        await Measure(server, http11, 20);
        await Measure(server, http2, 20);
        var perHttp11 = await Measure(server, http11, Connections);
        var perHttp2 = await Measure(server, http2, Connections);

        TestContext.Out.WriteLine($"managed heap per idle connection after one request: HTTP/1.1 {perHttp11:F0} B, HTTP/2 {perHttp2:F0} B ({Connections} each)");
        Assert.That(perHttp2 - perHttp11, Is.LessThan(16 * 1024), "HTTP/2's own state per idle connection (HPACK tables, stream table, output)");
    }

    // Opens the connections, makes each send `request` and read its answer, then returns the heap growth per connection.
    private static async Task<double> Measure(HttpServer server, byte[] request, int connections)
    {
        var before = Heap();
        var peers = new List<RawPeer>();
        try
        {
            for (var i = 0; i < connections; i++)
            {
                var peer = await RawPeer.ConnectAsync(server.Endpoint);
                peers.Add(peer);
                await peer.Socket.SendAsync(request, SocketFlags.None);
            }
            var buffer = new byte[64 * 1024];
            foreach (var peer in peers)
            {
                var seen = "";
                while (!seen.Contains("Hello, World!", StringComparison.Ordinal))
                {
                    var n = await Wait.For(peer.Socket.ReceiveAsync(buffer, SocketFlags.None), "an answer");
                    Assert.That(n, Is.GreaterThan(0), "closed before its answer");
                    seen += Encoding.Latin1.GetString(buffer, 0, n);
                }
            }
            return (Heap() - before) / (double)connections;
        }
        finally
        {
            foreach (var peer in peers)
                peer.Dispose();
        }
    }

    /// <summary>The managed heap after a full collection, finalizers run.</summary>
    internal static long Heap()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        return GC.GetTotalMemory(forceFullCollection: true);
    }
}
