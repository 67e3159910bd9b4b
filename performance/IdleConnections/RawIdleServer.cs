using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>
/// The baseline server with no library: a listening <see cref="Socket"/> on 127.0.0.1 that accepts in a loop, keeps
/// every accepted socket in a set (as any server that can close its connections must) and keeps one receive pending
/// on each: a zero-byte one, so that an idle connection holds no buffer, then a pooled buffer once data is there.
/// </summary>
internal sealed class RawIdleServer : IIdleServer
{
    private readonly HashSet<Socket> _sockets = [];
    private readonly Action<Socket> _forget;
    private readonly CancellationTokenSource _stop = new();
    private Socket? _listener;
    private long _ready;

    public RawIdleServer() => _forget = Forget;

    public long ReadySessions => Interlocked.Read(ref _ready);

    public long ConnectedSessions
    {
        get
        {
            lock (_sockets)
                return _sockets.Count;
        }
    }

    public int BoundPort => ((IPEndPoint)_listener!.LocalEndPoint!).Port;

    public bool Start()
    {
        var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
        listener.Listen(1024);
        _listener = listener;
        _ = AcceptLoopAsync(listener);
        return true;
    }

    public bool Stop()
    {
        _stop.Cancel();
        _listener?.Dispose();
        Socket[] open;
        lock (_sockets)
            open = [.. _sockets];
        foreach (var socket in open)
            socket.Dispose();
        return true;
    }

    public void Dispose()
    {
        Stop();
        _stop.Dispose();
    }

    private async Task AcceptLoopAsync(Socket listener)
    {
        try
        {
            while (true)
            {
                var socket = await listener.AcceptAsync(_stop.Token).ConfigureAwait(false);
                lock (_sockets)
                    _sockets.Add(socket);
                Interlocked.Increment(ref _ready);
                _ = RawSet.ReceiveLoopAsync(socket, _forget);
            }
        }
        catch (Exception exception) when (exception is SocketException or ObjectDisposedException or OperationCanceledException)
        {
        }
    }

    // Once a socket's receive loop (RawSet's) has ended: forget the socket. The loop calls this itself, so a connection
    // costs one state machine, not a second one awaiting the first.
    private void Forget(Socket socket)
    {
        lock (_sockets)
            _sockets.Remove(socket);
        socket.Dispose();
    }
}
