using System;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.RawEchoServer;

/// <summary>
/// One socket and one loop: await a datagram with ReceiveFromAsync, await sending it back with SendToAsync, repeat.
/// The least a UDP echo server can do on <see cref="Socket"/>; kernel buffers sized as the library's echo server sizes them.
/// </summary>
internal sealed class RawUdpEchoServer(IPEndPoint endpoint) : IBenchmarkServer
{
    private const int BufferSize = 65536;
    private const int KernelBufferSize = 4 * 1024 * 1024;
    private static readonly TimeSpan s_stopTimeout = TimeSpan.FromSeconds(5);

    private readonly CancellationTokenSource _stopping = new();
    private Socket? _socket;
    private Task _loop = Task.CompletedTask;

    public string ListeningOn => _socket?.LocalEndPoint?.ToString() ?? endpoint.ToString();

    public bool Start()
    {
        if (_socket != null)
            return false;
        var socket = new Socket(endpoint.AddressFamily, SocketType.Dgram, ProtocolType.Udp)
        {
            ReceiveBufferSize = KernelBufferSize,
            SendBufferSize = KernelBufferSize,
        };
        try
        {
            socket.Bind(endpoint);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
        _socket = socket;
        _loop = EchoAsync(socket, _stopping.Token);
        return true;
    }

    public bool Stop()
    {
        var socket = Interlocked.Exchange(ref _socket, null);
        if (socket == null)
            return false;
        _stopping.Cancel();
        socket.Dispose();
        if (!_loop.Wait(s_stopTimeout))
            Console.Error.WriteLine($"warning: the echo loop still runs {s_stopTimeout.TotalSeconds:0} s after the stop");
        return true;
    }

    public void Dispose()
    {
        Stop();
        _stopping.Dispose();
    }

    private static async Task EchoAsync(Socket socket, CancellationToken cancellationToken)
    {
        await Task.Yield();
        var buffer = new byte[BufferSize];
        EndPoint any = new IPEndPoint(socket.AddressFamily == AddressFamily.InterNetworkV6 ? IPAddress.IPv6Any : IPAddress.Any, 0);
        while (!cancellationToken.IsCancellationRequested)
        {
            try
            {
                var received = await socket.ReceiveFromAsync(buffer, SocketFlags.None, any, cancellationToken).ConfigureAwait(false);
                await socket.SendToAsync(buffer.AsMemory(0, received.ReceivedBytes), SocketFlags.None, received.RemoteEndPoint, cancellationToken).ConfigureAwait(false);
            }
            catch (Exception exception) when (exception is OperationCanceledException or ObjectDisposedException)
            {
                return;
            }
            catch (SocketException exception)
            {
                // A datagram's error (e.g. an ICMP port unreachable reported on the next call) ends nothing in UDP.
                if (cancellationToken.IsCancellationRequested)
                    return;
                Console.Error.WriteLine($"Raw echo server caught an error: {exception.SocketErrorCode}");
            }
        }
    }
}
