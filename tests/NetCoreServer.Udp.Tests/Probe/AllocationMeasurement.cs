using System;
using System.Globalization;
using System.Net;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Udp.Probe;

/// <summary>
/// Measures what a steady UDP echo allocates per round trip, in NetCoreServer's one-shot model and in continuous mode,
/// over loopback. Prints "RESULT mode bytes-per-round-trip" per mode. Run in a fresh process: the allocation counter
/// is process-wide, and state left by other tests (the runtime's own socket machinery included) must not count.
/// </summary>
internal static class AllocationMeasurement
{
    // The test project's second run (build/test.sh) serves every socket from a receive thread; this process inherits its environment.
    private static readonly bool s_receiveThread = Environment.GetEnvironmentVariable("NETCORESERVER_TEST_UDP_RECEIVE_THREAD") == "1";

    private const int RoundTrips = 20_000;
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(60);

    public static async Task<int> Run()
    {
        foreach (var continuous in new[] { false, true })
        {
            using var server = new EchoServer(continuous);
            server.Start();
            using var client = new PingClient(new IPEndPoint(IPAddress.Loopback, ((IPEndPoint)server.Endpoint).Port), continuous);
            client.Connect();
            await client.Run(RoundTrips).WaitAsync(s_timeout);

            var before = GC.GetTotalAllocatedBytes(precise: true);
            await client.Run(RoundTrips).WaitAsync(s_timeout);
            var perRoundTrip = (GC.GetTotalAllocatedBytes(precise: true) - before) / (double)RoundTrips;
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"RESULT {(continuous ? "continuous" : "one-shot")} {perRoundTrip:F2}"));
        }
        return 0;
    }

    /// <summary>NetCoreServer's echo server: one-shot ReceiveAsync re-armed from OnSent, or continuous.</summary>
    private sealed class EchoServer : UdpServer
    {
        public EchoServer(bool continuous)
            : base(IPAddress.Loopback, 0)
        {
            OptionContinuousReceive = continuous;
            OptionReceiveThread = s_receiveThread;
        }

        protected override void OnStarted()
        {
            if (!OptionContinuousReceive)
                ReceiveAsync();
        }

        protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size) => SendAsync(endpoint, buffer, offset, size);

        protected override void OnSent(EndPoint endpoint, long sent)
        {
            if (!OptionContinuousReceive)
                ReceiveAsync();
        }
    }

    /// <summary>Sends the next datagram when the echo of the previous one arrives.</summary>
    private sealed class PingClient : UdpClient
    {
        private readonly byte[] _payload = new byte[32];
        private int _left;
        private TaskCompletionSource _done = new();

        public PingClient(IPEndPoint server, bool continuous)
            : base(server)
        {
            OptionContinuousReceive = continuous;
            OptionReceiveThread = s_receiveThread;
        }

        public Task Run(int roundTrips)
        {
            _done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            Volatile.Write(ref _left, roundTrips);
            if (!OptionContinuousReceive)
                ReceiveAsync();
            SendAsync(_payload);
            return _done.Task;
        }

        protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size)
        {
            if (Interlocked.Decrement(ref _left) == 0)
            {
                _done.TrySetResult();
                return;
            }
            if (!OptionContinuousReceive)
                ReceiveAsync();
            SendAsync(_payload);
        }
    }
}
