using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// The baseline: an echo server straight on <see cref="Socket"/> (one 8 KiB buffer per connection, receive then send),
/// on a free loopback port.
/// </summary>
internal sealed class RawLoopbackEchoServer : IDisposable
{
    private readonly Socket _listener = new(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
    private readonly CancellationTokenSource _stopping = new();
    private readonly List<Socket> _connections = [];
    private readonly Task _acceptLoop;

    public RawLoopbackEchoServer()
    {
        _listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        _listener.Listen(128);
        Endpoint = (IPEndPoint)_listener.LocalEndPoint!;
        _acceptLoop = AcceptLoopAsync();
    }

    public IPEndPoint Endpoint { get; }

    public void Dispose()
    {
        _stopping.Cancel();
        _listener.Dispose();
        lock (_connections)
        {
            foreach (var socket in _connections)
                socket.Dispose();
        }
        _acceptLoop.Wait(TimeSpan.FromSeconds(5));
        _stopping.Dispose();
    }

    private async Task AcceptLoopAsync()
    {
        await Task.Yield();
        try
        {
            while (!_stopping.IsCancellationRequested)
            {
                var socket = await _listener.AcceptAsync(_stopping.Token).ConfigureAwait(false);
                lock (_connections)
                    _connections.Add(socket);
                _ = EchoAsync(socket);
            }
        }
        catch (Exception exception) when (exception is OperationCanceledException or ObjectDisposedException or SocketException)
        {
            // Stopped.
        }
    }

    private async Task EchoAsync(Socket socket)
    {
        var buffer = new byte[8192];
        try
        {
            while (true)
            {
                var received = await socket.ReceiveAsync(buffer, SocketFlags.None, _stopping.Token).ConfigureAwait(false);
                if (received == 0)
                    return;
                var sent = 0;
                while (sent < received)
                    sent += await socket.SendAsync(buffer.AsMemory(sent, received - sent), SocketFlags.None, _stopping.Token).ConfigureAwait(false);
            }
        }
        catch (Exception exception) when (exception is OperationCanceledException or ObjectDisposedException or SocketException)
        {
            // The peer or the server went away.
        }
        finally
        {
            socket.Dispose();
        }
    }
}
