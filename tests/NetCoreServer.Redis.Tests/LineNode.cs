using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Redis.Tests;

/// <summary>
/// One server node of a test cluster: a line-framed TCP server on a free port with its own backplane (and so its own
/// Redis connection). Its sessions answer "join ROOM", "leave ROOM" and "id" with one line, so a test can put a
/// client in a group and learn its session id over the wire.
/// </summary>
internal sealed class LineNode : IAsyncDisposable
{
    private readonly List<LineClient> _clients = new();

    private LineNode(LineServer server, RedisBackplane backplane)
    {
        Server = server;
        Backplane = backplane;
    }

    public LineServer Server { get; }

    public RedisBackplane Backplane { get; }

    public int Port => ((IPEndPoint)Server.Endpoint).Port;

    public static async Task<LineNode> StartAsync(string redis, RedisBackplaneOptions? options = null)
    {
        var server = new LineServer();
        Assert.That(server.Start(), Is.True, "server start");
        try
        {
            var backplane = await RedisBackplane.AttachAsync(server, redis, options);
            server.Backplane = backplane;
            return new LineNode(server, backplane);
        }
        catch
        {
            server.Dispose();
            throw;
        }
    }

    /// <summary>Connects a client and waits until the server has registered its session (so a multicast reaches it).</summary>
    public async Task<LineClient> ConnectAsync()
    {
        var expected = Server.ConnectedSessions + 1;
        var client = await LineClient.ConnectAsync(Port);
        _clients.Add(client);
        await Wait.Until(() => Server.ConnectedSessions >= expected, $"session {expected} registered on port {Port}");
        return client;
    }

    /// <summary>Stops as a node should: the server first (no more multicasts), then the backplane drains what is queued.</summary>
    public async ValueTask DisposeAsync()
    {
        foreach (var client in _clients)
            client.Dispose();
        Server.Stop();
        await Backplane.DisposeAsync();
        Server.Dispose();
    }
}
