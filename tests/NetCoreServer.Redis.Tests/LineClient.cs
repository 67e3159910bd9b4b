using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Redis.Tests;

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
