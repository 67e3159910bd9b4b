using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using NetCoreServer;

// safety server PORT LOOPS THRESHOLD_MS|off SECONDS   (LOOPS 0: the thread pool; default: no option set)
// safety client PORT SECONDS SLEEPERS PINGERS          (prints p50/p99/max of the pingers' round trips, in ms)
if (args[0] == "server")
{
    var port = int.Parse(args[1]);
    var loops = args[2] == "default" ? -1 : int.Parse(args[2]);
    var thresholdProp = typeof(EventLoops).GetProperty("HandoffThreshold");
    if (thresholdProp != null && args[3] != "default")
        thresholdProp.SetValue(null, args[3] == "off" ? Timeout.InfiniteTimeSpan : TimeSpan.FromMilliseconds(double.Parse(args[3])));
    using var server = new SleepyServer(IPAddress.Loopback, port) { OptionNoDelay = true };
    if (loops >= 0)
        server.OptionEventLoops = loops;
    server.Start();
    Thread.Sleep(TimeSpan.FromSeconds(double.Parse(args[4])));
    var asm = typeof(EventLoops).Assembly;
    var handoffs = asm.GetType("NetCoreServer.Transports.EventLoop")?.GetProperty("Handoffs", System.Reflection.BindingFlags.NonPublic | System.Reflection.BindingFlags.Static)?.GetValue(null);
    var threads = asm.GetType("NetCoreServer.Transports.LoopThreads")?.GetProperty("Count", System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.Static)?.GetValue(null);
    Console.Error.WriteLine($"server: handoffs {handoffs} loop threads {threads} gc0 {GC.CollectionCount(0)} gc2 {GC.CollectionCount(2)} pause {GC.GetTotalPauseDuration().TotalMilliseconds:0} ms");
    server.Stop();
    return;
}
{
    var port = int.Parse(args[1]);
    var seconds = double.Parse(args[2]);
    var sleepers = int.Parse(args[3]);
    var pingers = int.Parse(args[4]);
    var start = Stopwatch.GetTimestamp();
    var warm = start + Stopwatch.Frequency; // the first second is not counted
    var end = start + (long)(seconds * Stopwatch.Frequency);
    var samples = new List<long>[pingers];
    var threads = new List<Thread>();
    var sleeperRounds = 0L;
    for (var i = 0; i < sleepers; i++)
        threads.Add(new Thread(() => { var n = Run((byte)'S', end, 0, null); Interlocked.Add(ref sleeperRounds, n); }));
    for (var i = 0; i < pingers; i++)
    {
        var list = samples[i] = new List<long>(1 << 16);
        threads.Add(new Thread(() => Run((byte)'p', end, warm, list)));
    }
    foreach (var t in threads) t.Start();
    foreach (var t in threads) t.Join();
    var all = samples.SelectMany(s => s).OrderBy(x => x).ToArray();
    double Ms(long ticks) => ticks * 1000.0 / Stopwatch.Frequency;
    double P(double q) => Ms(all[Math.Min(all.Length - 1, (int)(q * all.Length))]);
    Console.WriteLine($"pingers {pingers} sleepers {sleepers} samples {all.Length} p50 {P(0.50):0.000} p99 {P(0.99):0.000} p999 {P(0.999):0.000} max {Ms(all[^1]):0.000} ms; over100 {all.Count(x => Ms(x) >= 100)}; sleeper rounds {sleeperRounds}");

    long Run(byte first, long until, long countFrom, List<long>? into)
    {
        using var s = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        s.Connect(IPAddress.Loopback, port);
        var msg = new byte[32];
        Array.Fill(msg, first);
        var buf = new byte[32];
        long rounds = 0;
        while (Stopwatch.GetTimestamp() < until)
        {
            var t0 = Stopwatch.GetTimestamp();
            s.Send(msg);
            var got = 0;
            while (got < 32)
            {
                var n = s.Receive(buf, got, 32 - got, SocketFlags.None);
                if (n <= 0) return rounds;
                got += n;
            }
            var t1 = Stopwatch.GetTimestamp();
            rounds++;
            if (into != null && t0 >= countFrom)
                into.Add(t1 - t0);
        }
        return rounds;
    }
}

sealed class SleepyServer(IPAddress address, int port) : TcpServer(address, port)
{
    protected override TcpSession CreateSession() => new SleepySession(this);
}

sealed class SleepySession(TcpServer server) : TcpSession(server)
{
    // Decided by the connection's first read: 32 bytes of 'S' make it a sleeper (other load, e.g. echo_load's byte
    // stream, never sleeps).
    private bool? _sleeper;

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        _sleeper ??= size >= 32 && buffer.AsSpan((int)offset, 32).IndexOfAnyExcept((byte)'S') < 0;
        if (_sleeper == true)
            Thread.Sleep(100);
        SendAsync(buffer, offset, size);
    }
}
