using System;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>
/// A UDP echo client. It sends a window of datagrams when its socket opens and one more for every echo, so the window
/// stays in flight. UDP may drop datagrams: when nothing has arrived for 100 ms (about 1000 loopback round trips) the
/// whole window counts as lost and is sent again. A window that only partly vanished keeps circulating with fewer
/// datagrams until none is left; an echo arriving after its window was written off still counts as received, so
/// the lost figure is an upper bound.
/// </summary>
internal sealed class EchoUdpClient : UdpClient, IBenchmarkClient
{
    private static readonly TimeSpan s_silence = TimeSpan.FromMilliseconds(100);

    // Room for a few windows of echoes arriving together; the kernel drops what does not fit.
    private const int KernelBufferSize = 1024 * 1024;

    private readonly ConnectionMeter _meter;
    private readonly byte[] _message;
    private readonly int _window;
    private readonly Timer _watchdog;
    private long _received;
    private long _receivedAtLastCheck;

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
        SendWindow();
        _watchdog.Change(s_silence, Timeout.InfiniteTimeSpan);
    }

    protected override void OnReceived(EndPoint endpoint, byte[] buffer, long offset, long size)
    {
        // Only the receive loop writes the count (its calls never overlap); the watchdog reads it.
        Volatile.Write(ref _received, _received + 1);
        _meter.Received(size);
        SendAsync(_message);
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
        if (received == _receivedAtLastCheck)
        {
            _meter.DatagramsLost(_window);
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
            SendAsync(_message);
    }
}
