using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>
/// The library's connections: a <see cref="TcpServer"/> and <see cref="TcpClient"/>s, or an <see cref="SslServer"/>
/// and <see cref="SslClient"/>s, all with default options and no subclass hooks beyond counting.
/// </summary>
internal sealed class LibrarySet : IConnectionSet
{
    // Connects in flight at once: well inside the default accept backlog (1024), so no SYN is dropped and retried.
    private const int ConcurrentConnects = 64;

    private readonly IIdleServer _server;
    private readonly Func<int, StreamClient> _createClient;
    private readonly List<StreamClient> _clients = [];

    private LibrarySet(IIdleServer server, Func<int, StreamClient> createClient, string description)
    {
        _server = server;
        _createClient = createClient;
        Description = description;
    }

    public string Description { get; }

    /// <summary>TcpServer sessions and TcpClients.</summary>
    public static LibrarySet Tcp() => new(new IdleTcpServer(), port => new TcpClient(IPAddress.Loopback, port), "NetCoreServer TcpSession + TcpClient");

    /// <summary>SslServer sessions and SslClients, with the benchmarks' certificates (see <see cref="DevelopmentTls"/>).</summary>
    public static LibrarySet Ssl()
    {
        var serverContext = new SslContext(DevelopmentTls.ServerProtocols, DevelopmentTls.LoadServerCertificate(null, DevelopmentTls.DefaultPassword));
        var clientContext = new SslContext(DevelopmentTls.ClientProtocols, DevelopmentTls.TrustAuthority(null));
        return new(new IdleSslServer(serverContext), port => new SslClient(clientContext, IPAddress.Loopback, port), "NetCoreServer SslSession + SslClient");
    }

    public void Start()
    {
        if (!_server.Start())
            throw new IOException("the server did not start");
    }

    public async Task OpenAsync(int count, CancellationToken cancellationToken)
    {
        var target = _server.ReadySessions + count;
        var port = _server.BoundPort;
        var clients = new StreamClient[count];
        try
        {
            var parallel = new ParallelOptions { MaxDegreeOfParallelism = ConcurrentConnects, CancellationToken = cancellationToken };
            await Parallel.ForAsync(0, count, parallel, async (i, token) =>
            {
                var client = _createClient(port);
                clients[i] = client;
                if (!await client.ConnectAndWaitAsync(token).ConfigureAwait(false))
                    throw new IOException($"a client could not connect to 127.0.0.1:{port}: {Failure(client)}");
            }).ConfigureAwait(false);
        }
        finally
        {
            _clients.AddRange(clients.Where(client => client is not null));
        }
        await Poll.UntilAsync(() => _server.ReadySessions >= target, cancellationToken).ConfigureAwait(false);
    }

    public async Task CloseAllAsync(CancellationToken cancellationToken)
    {
        await Task.WhenAll(_clients.Select(client => client.DisconnectAndWaitAsync())).WaitAsync(cancellationToken).ConfigureAwait(false);
        foreach (var client in _clients)
            client.Dispose();
        _clients.Clear();
        await Poll.UntilAsync(() => _server.ConnectedSessions == 0, cancellationToken).ConfigureAwait(false);
    }

    public ValueTask DisposeAsync()
    {
        foreach (var client in _clients)
            client.Dispose();
        _clients.Clear();
        _server.Stop();
        _server.Dispose();
        return ValueTask.CompletedTask;
    }

    private static string Failure(StreamClient client) => client is SslClient { HandshakeException: { } exception }
        ? $"handshake failed: {exception.Message}"
        : client.DisconnectReason.ToString();
}
