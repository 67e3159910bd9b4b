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

/// <summary>The node's server: line framing, sessions that take the group commands.</summary>
internal sealed class LineServer : TcpServer
{
    public LineServer()
        : base(IPAddress.Loopback, 0)
        => Framing = MessageFraming.Lines();

    public RedisBackplane? Backplane { get; set; }

    protected override TcpSession CreateSession() => new LineSession(this);
}

internal sealed class LineSession(LineServer server) : TcpSession(server)
{
    protected override void OnReceivedMessage(ReadOnlySpan<byte> message)
    {
        var text = Encoding.UTF8.GetString(message);
        var backplane = server.Backplane!;
        if (text.StartsWith("join ", StringComparison.Ordinal))
            SendAsync($"joined {backplane.JoinGroup(this, text[5..])}\n");
        else if (text.StartsWith("leave ", StringComparison.Ordinal))
            SendAsync($"left {backplane.LeaveGroup(this, text[6..])}\n");
        else if (text == "id")
            SendAsync($"id {Id}\n");
    }
}

/// <summary>A plain .NET TCP client reading lines, each read bounded in time.</summary>
internal sealed class LineClient : IDisposable
{
    private readonly System.Net.Sockets.TcpClient _tcp;
    private readonly StreamReader _reader;
    private readonly Stream _stream;

    private LineClient(System.Net.Sockets.TcpClient tcp)
    {
        _tcp = tcp;
        _stream = tcp.GetStream();
        _reader = new StreamReader(_stream, Encoding.UTF8);
    }

    public static async Task<LineClient> ConnectAsync(int port)
    {
        var tcp = new System.Net.Sockets.TcpClient();
        await tcp.ConnectAsync(IPAddress.Loopback, port);
        return new LineClient(tcp);
    }

    /// <summary>The next line; fails the test naming <paramref name="expected"/> when none comes in time.</summary>
    public async Task<string> ReadLineAsync(string expected, TimeSpan? timeout = null)
    {
        using var cancel = new CancellationTokenSource(timeout ?? Wait.Default);
        try
        {
            return await _reader.ReadLineAsync(cancel.Token) ?? throw new EndOfStreamException($"connection closed waiting for: {expected}");
        }
        catch (OperationCanceledException)
        {
            throw new TimeoutException($"Timed out waiting for: {expected}");
        }
    }

    /// <summary>Reads lines until <paramref name="last"/> (included).</summary>
    public async Task<List<string>> ReadUntilAsync(string last, string expected)
    {
        var lines = new List<string>();
        while (true)
        {
            var line = await ReadLineAsync(expected);
            lines.Add(line);
            if (line == last)
                return lines;
        }
    }

    /// <summary>Sends a command line and returns the one-line answer.</summary>
    public async Task<string> CommandAsync(string command)
    {
        await _stream.WriteAsync(Encoding.UTF8.GetBytes(command + "\n"));
        return await ReadLineAsync($"the answer to '{command}'");
    }

    public void Dispose() => _tcp.Dispose();
}
