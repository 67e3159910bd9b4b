using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Redis;

namespace NetCoreServer.Performance.RedisBackplane;

/// <summary>
/// Multicast across 1, 2 and 3 server nodes in one run: every node is a TcpServer in this process (the 2- and 3-node
/// ones each with a backplane and its own Redis connection), the clients are plain sockets split evenly between the
/// nodes, and node 0 multicasts a fixed number of messages, paced so nothing is dropped. Reports how long until every
/// client had every message, as messages multicast per second and messages delivered per second.
/// </summary>
internal static class Program
{
    private static async Task<int> Main(string[] args)
    {
        string? redis = null;
        var clients = 100;
        var size = 32;
        var messages = 100_000;
        var nodeCounts = new[] { 1, 2, 3 };
        var rounds = 1;
        for (var i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--redis": redis = args[++i]; break;
                case "-c": case "--clients": clients = int.Parse(args[++i]); break;
                case "-s": case "--size": size = int.Parse(args[++i]); break;
                case "-m": case "--messages": messages = int.Parse(args[++i]); break;
                case "--nodes": nodeCounts = args[++i].Split(',').Select(int.Parse).ToArray(); break;
                case "--rounds": rounds = int.Parse(args[++i]); break;
                default:
                    Console.Error.WriteLine("Usage: RedisBackplane --redis HOST:PORT [-c clients=100] [-s size=32] [-m messages=100000] [--nodes 1,2,3] [--rounds 1]");
                    return args[i] is "-h" or "--help" or "-?" ? 0 : 2;
            }
        }
        if (redis == null)
        {
            Console.Error.WriteLine("--redis HOST:PORT is required (a redis-server of its own: the benchmark publishes on a channel of its own)");
            return 2;
        }
        Console.WriteLine($"clients {clients}, message {size} B, {messages} messages from node 0, Redis {redis}");
        for (var round = 0; round < rounds; round++)
        {
            foreach (var nodes in nodeCounts)
                await RunAsync(nodes, clients, size, messages, redis);
        }
        return 0;
    }

    private static async Task RunAsync(int nodeCount, int clientCount, int size, int messages, string redis)
    {
        var options = new RedisBackplaneOptions { Channel = "bench:" + Guid.NewGuid().ToString("N") };
        var servers = new List<BenchServer>();
        var backplanes = new List<NetCoreServer.Redis.RedisBackplane>();
        var clients = new List<CountingClient>();
        try
        {
            for (var n = 0; n < nodeCount; n++)
            {
                var server = new BenchServer();
                server.Start();
                servers.Add(server);
                if (nodeCount > 1)
                    backplanes.Add(await NetCoreServer.Redis.RedisBackplane.AttachAsync(server, redis, options));
            }
            for (var c = 0; c < clientCount; c++)
                clients.Add(await CountingClient.ConnectAsync(((IPEndPoint)servers[c % nodeCount].Endpoint).Port, size));
            while (servers.Sum(s => s.ConnectedSessions) < clientCount)
                await Task.Delay(10);

            var allocated = GC.GetTotalAllocatedBytes(precise: true);
            var cpu = Process.GetCurrentProcess().TotalProcessorTime;
            var watch = Stopwatch.StartNew();
            var message = new byte[size];
            var publisher = servers[0];
            var backplane = backplanes.FirstOrDefault();
            for (var i = 0; i < messages; i++)
            {
                BitConverter.TryWriteBytes(message, i);
                publisher.Multicast(message);
                // Paced: Redis's queue and the slowest client stay within bounds, so nothing is dropped or skipped.
                if ((i & 255) == 255)
                {
                    while ((backplane?.QueuedMessages ?? 0) > 4096 || i - clients.Min(c => c.Received) > 20_000)
                        Thread.Sleep(1);
                }
            }
            while (clients.Any(c => c.Received < messages))
            {
                if (watch.Elapsed > TimeSpan.FromSeconds(120))
                    throw new TimeoutException($"clients got {clients.Min(c => c.Received)} of {messages}");
                await Task.Delay(1);
            }
            watch.Stop();
            var used = Process.GetCurrentProcess().TotalProcessorTime - cpu;
            // Whole process: the publishing node, the receiving nodes (the Redis client's copy of each value) and the clients.
            var perMessage = (GC.GetTotalAllocatedBytes(precise: true) - allocated) / (double)messages;
            var seconds = watch.Elapsed.TotalSeconds;
            Console.WriteLine($"nodes {nodeCount}: {seconds:0.00} s, {messages / seconds / 1000:0.0}k msg/s multicast, "
                + $"{(double)messages * clientCount / seconds / 1e6:0.00}M msg/s delivered, CPU {used.TotalSeconds / seconds:0.00} cores, {perMessage:0} B allocated per message, "
                + $"published {backplanes.Sum(b => b.Published)}, received {backplanes.Sum(b => b.Received)}, dropped {backplanes.Sum(b => b.Dropped)}");
        }
        finally
        {
            foreach (var client in clients)
                client.Dispose();
            foreach (var b in backplanes)
                await b.DisposeAsync();
            foreach (var server in servers)
                server.Dispose();
        }
    }

    private sealed class BenchServer() : TcpServer(IPAddress.Loopback, 0)
    {
        protected override TcpSession CreateSession() => new BenchSession(this);
    }

    private sealed class BenchSession : TcpSession
    {
        // The benchmark paces itself; no message may be skipped for a full queue.
        public BenchSession(TcpServer server)
            : base(server)
            => OptionSendBufferLimit = 0;
    }

    /// <summary>A plain socket counting whole messages received.</summary>
    private sealed class CountingClient : IDisposable
    {
        private readonly Socket _socket;
        private readonly int _size;
        private long _bytes;

        private CountingClient(Socket socket, int size)
        {
            _socket = socket;
            _size = size;
            _ = ReceiveAsync();
        }

        public long Received => Interlocked.Read(ref _bytes) / _size;

        public static async Task<CountingClient> ConnectAsync(int port, int size)
        {
            var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            await socket.ConnectAsync(IPAddress.Loopback, port);
            return new CountingClient(socket, size);
        }

        public void Dispose() => _socket.Dispose();

        private async Task ReceiveAsync()
        {
            var buffer = new byte[64 * 1024];
            try
            {
                while (true)
                {
                    var read = await _socket.ReceiveAsync(buffer, SocketFlags.None);
                    if (read == 0)
                        return;
                    Interlocked.Add(ref _bytes, read);
                }
            }
            catch (Exception)
            {
                // Closed at the end of a run.
            }
        }
    }
}
