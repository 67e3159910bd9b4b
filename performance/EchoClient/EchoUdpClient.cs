using System;
using System.Buffers.Binary;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>
/// A UDP echo client. It sends a window of datagrams when its socket opens and one more for every echo, so the window
/// stays in flight. UDP may drop datagrams: when nothing has arrived for 100 ms (about 1000 idle loopback round trips),
/// or for four smoothed round-trip times if that is longer, the whole window counts as lost and is sent again. A
/// window that only partly vanished keeps circulating with fewer datagrams until none is left; an echo arriving after
/// its window was written off still counts as received, so the lost figure is an upper bound. Each datagram of 8 bytes
/// or more carries its send time in its first 8 bytes (the echo brings it back): a loaded server queues thousands of
/// datagrams, and a fixed 100 ms would write off windows that are only waiting in its queue, whose re-sends then
/// overflow that queue for real, so the figure would measure the client's timeout instead of the server.
/// </summary>
internal sealed class EchoUdpClient : UdpClient, IBenchmarkClient
{
    private static readonly TimeSpan s_silence = TimeSpan.FromMilliseconds(100);
    private static readonly long s_silenceTicks = (long)(s_silence.TotalSeconds * Stopwatch.Frequency);

    // Stamped copies of the message, one per thread: SendAsync copies the datagram before it returns.
    [ThreadStatic]
    private static byte[]? t_stamped;

    // Room for a few windows of echoes arriving together; the kernel drops what does not fit.
    private const int KernelBufferSize = 1024 * 1024;

    private readonly ConnectionMeter _meter;
    private readonly byte[] _message;
    private readonly int _window;
    private readonly Timer _watchdog;
    private long _received;
    private long _receivedAtLastCheck;
    private long _lastProgress;
    private long _smoothedRoundTrip;

    /// <summary>The message every datagram carries: <paramref name="size"/> bytes of 'a' to 'z'.</summary>
    public static byte[] CreateMessage(int size)
    {
        var message = new byte[size];
        for (var i = 0; i < size; i++)
            message[i] = (byte)('a' + i % 26);
        return message;
    }

    public EchoUdpClient(string address, int port, int window, byte[] message, ConnectionMeter meter)
        : base(address, port)
    {
        _meter = meter;
        _message = message;
        _window = window;
        _watchdog = new Timer(_ => CheckSilence());
        OptionContinuousReceive = true;
        OptionReceiveBufferSize = KernelBufferSize;
        // What is queued is bounded by the window, which the options already bound; re-sent windows add at most one more.
        OptionSendBufferLimit = 0;
    }

    bool IBenchmarkClient.StartConnecting() => Connect();

    Task IBenchmarkClient.StopAsync()
    {
        _watchdog.Change(Timeout.InfiniteTimeSpan, Timeout.InfiniteTimeSpan);
        Disconnect();
        return Task.CompletedTask;
    }

    protected override void OnConnected()
    {
        _meter.Connected();
        Volatile.Write(ref _lastProgress, Stopwatch.GetTimestamp());
        SendWindow();
        _watchdog.Change(s_silence, Timeout.InfiniteTimeSpan);
    }

    protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size)
    {
        // Only the receive loop writes the count and the round trip (its calls never overlap); the watchdog reads them.
        var now = Stopwatch.GetTimestamp();
        Volatile.Write(ref _received, _received + 1);
        Volatile.Write(ref _lastProgress, now);
        if (size >= sizeof(long))
        {
            // Smoothed as TCP does (RFC 6298: 1/8 of each new sample).
            var sample = now - BinaryPrimitives.ReadInt64LittleEndian(buffer.AsSpan((int)offset, sizeof(long)));
            var smoothed = _smoothedRoundTrip;
            Volatile.Write(ref _smoothedRoundTrip, smoothed == 0 ? sample : smoothed + (sample - smoothed) / 8);
        }
        _meter.Received(size);
        SendStamped();
    }

    protected override void OnDisconnected() => _meter.Disconnected();

    protected override void OnError(SocketError error) => _meter.Error();

    protected override void Dispose(bool disposingManagedResources)
    {
        if (disposingManagedResources)
            _watchdog.Dispose();
        base.Dispose(disposingManagedResources);
    }

    // A one-shot timer re-armed at the end, so that two checks never overlap.
    private void CheckSilence()
    {
        if (!IsConnected)
            return;
        var received = Volatile.Read(ref _received);
        var quiet = Stopwatch.GetTimestamp() - Volatile.Read(ref _lastProgress);
        if (received == _receivedAtLastCheck && quiet >= Math.Max(s_silenceTicks, 4 * Volatile.Read(ref _smoothedRoundTrip)))
        {
            _meter.DatagramsLost(_window);
            Volatile.Write(ref _lastProgress, Stopwatch.GetTimestamp());
            SendWindow();
        }
        _receivedAtLastCheck = received;
        try
        {
            _watchdog.Change(s_silence, Timeout.InfiniteTimeSpan);
        }
        catch (ObjectDisposedException)
        {
        }
    }

    private void SendWindow()
    {
        for (var i = 0; i < _window; i++)
            SendStamped();
    }

    private void SendStamped()
    {
        if (_message.Length < sizeof(long))
        {
            SendAsync(_message);
            return;
        }
        var stamped = t_stamped;
        if (stamped == null || stamped.Length != _message.Length)
            t_stamped = stamped = (byte[])_message.Clone();
        BinaryPrimitives.WriteInt64LittleEndian(stamped, Stopwatch.GetTimestamp());
        SendAsync(stamped);
    }
}
