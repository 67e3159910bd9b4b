using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>
/// The clients of <c>--server-only</c>: plain connected sockets in the parent process, with nothing pending on them,
/// so that the two servers compared see exactly the same peers.
/// </summary>
internal sealed class PlainClients : IDisposable
{
    // Connects in flight at once: well inside the accept backlog (1024), so no SYN is dropped and retried.
    private const int ConcurrentConnects = 64;

    private readonly List<Socket> _sockets = [];

    /// <summary>Opens <paramref name="count"/> more connections to 127.0.0.1:<paramref name="port"/>.</summary>
    public async Task OpenAsync(int port, int count, CancellationToken cancellationToken)
    {
        var endpoint = new IPEndPoint(IPAddress.Loopback, port);
        var parallel = new ParallelOptions { MaxDegreeOfParallelism = ConcurrentConnects, CancellationToken = cancellationToken };
        await Parallel.ForAsync(0, count, parallel, async (_, token) =>
        {
            var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            lock (_sockets)
                _sockets.Add(socket);
            await socket.ConnectAsync(endpoint, token).ConfigureAwait(false);
        }).ConfigureAwait(false);
    }

    /// <summary>Closes every connection (the server sees each end of stream).</summary>
    public void CloseAll()
    {
        lock (_sockets)
        {
            foreach (var socket in _sockets)
                socket.Dispose();
            _sockets.Clear();
        }
    }

    public void Dispose() => CloseAll();
}
