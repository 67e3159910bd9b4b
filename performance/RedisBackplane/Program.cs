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
/// client had every message, as messages multicast per second and messages delivered per second, and the latency from
/// Multicast to a client's receive (every 16th message carries its send time) for clients of node 0 and of the others.
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
        var rate = 0;
        var signed = false;
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
                case "--rate": rate = int.Parse(args[++i]); break;
                case "--secret": signed = true; break;
                default:
                    Console.Error.WriteLine("Usage: RedisBackplane --redis HOST:PORT [-c clients=100] [-s size=32] [-m messages=100000] [--nodes 1,2,3] [--rounds 1] [--rate msg/s, 0 = as fast as delivery allows] [--secret: frames signed and checked]");
                    return args[i] is "-h" or "--help" or "-?" ? 0 : 2;
            }
        }
        if (redis == null)
        {
            Console.Error.WriteLine("--redis HOST:PORT is required (a redis-server of its own: the benchmark publishes on a channel of its own)");
            return 2;
        }
        Console.WriteLine($"clients {clients}, message {size} B, {messages} messages from node 0{(rate > 0 ? $" at {rate} msg/s" : "")}{(signed ? ", signed" : "")}, Redis {redis}");
        for (var round = 0; round < rounds; round++)
        {
            foreach (var nodes in nodeCounts)
                await RunAsync(nodes, clients, size, messages, redis, rate, signed);
        }
        return 0;
    }

    private static async Task RunAsync(int nodeCount, int clientCount, int size, int messages, string redis, int rate, bool signed)
    {
        var options = new RedisBackplaneOptions { Channel = "bench:" + Guid.NewGuid().ToString("N") };
        if (signed)
            options.Secret = System.Security.Cryptography.RandomNumberGenerator.GetBytes(32);
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
                if (size >= CountingClient.StampedSize)
                    BitConverter.TryWriteBytes(message.AsSpan(4), Stopwatch.GetTimestamp());
                publisher.Multicast(message);
                // At a fixed rate: latency under a load the nodes keep up with, not queueing behind a flood.
                if (rate > 0 && (i & 63) == 63)
                {
                    while (watch.Elapsed.TotalSeconds < (i + 1.0) / rate)
                        Thread.Sleep(1);
                }
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
                + $"published {backplanes.Sum(b => b.Published)}, received {backplanes.Sum(b => b.Received)}, dropped {backplanes.Sum(b => b.Dropped)}, refused {backplanes.Sum(b => b.Refused)}");
            if (size >= CountingClient.StampedSize)
            {
                // Clients c % nodeCount == 0 are node 0's (the publisher's); the others get each message through Redis.
                Console.WriteLine($"  latency on node 0: {Percentiles(clients.Where((_, c) => c % nodeCount == 0))}"
                    + (nodeCount > 1 ? $"; on the other nodes: {Percentiles(clients.Where((_, c) => c % nodeCount != 0))}" : ""));
            }
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

    private static string Percentiles(IEnumerable<CountingClient> clients)
    {
        var all = clients.SelectMany(c => c.Latencies).Order().ToArray();
        if (all.Length == 0)
            return "no samples";
        double Micro(double q) => all[Math.Min(all.Length - 1, (int)(q * all.Length))] * 1e6 / Stopwatch.Frequency;
        return $"p50 {Micro(0.50):0} us, p99 {Micro(0.99):0} us, p99.9 {Micro(0.999):0} us ({all.Length} samples)";
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

    /// <summary>A plain socket counting whole messages received and timing every 16th.</summary>
    private sealed class CountingClient : IDisposable
    {
        /// <summary>The smallest message that carries its send time: an index and a timestamp.</summary>
        public const int StampedSize = 12;

        private readonly Socket _socket;
        private readonly int _size;
        private readonly byte[] _message;
        private int _have;
        private long _bytes;

        private CountingClient(Socket socket, int size)
        {
            _socket = socket;
            _size = size;
            _message = new byte[size];
            _ = ReceiveAsync();
        }

        public long Received => Interlocked.Read(ref _bytes) / _size;

        /// <summary>Stopwatch ticks from Multicast to arrival; read once the run is over.</summary>
        public List<long> Latencies { get; } = new();

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
                    if (_size >= StampedSize)
                        Time(buffer.AsSpan(0, read));
                    Interlocked.Add(ref _bytes, read);
                }
            }
            catch (Exception)
            {
                // Closed at the end of a run.
            }
        }

        // Cuts the stream into messages (fixed size) and keeps the latency of every 16th.
        private void Time(ReadOnlySpan<byte> data)
        {
            var now = Stopwatch.GetTimestamp();
            while (!data.IsEmpty)
            {
                var take = Math.Min(_size - _have, data.Length);
                data[..take].CopyTo(_message.AsSpan(_have));
                _have += take;
                data = data[take..];
                if (_have < _size)
                    return;
                _have = 0;
                if ((BitConverter.ToInt32(_message, 0) & 15) == 0)
                    Latencies.Add(now - BitConverter.ToInt64(_message, 4));
            }
        }
    }
}
