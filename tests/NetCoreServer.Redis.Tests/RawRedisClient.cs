using System;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Redis.Tests;

/// <summary>
/// Whoever else can reach a shared Redis: a plain socket speaking RESP, no Redis library, publishing bytes it built
/// by hand. Each publish returns Redis's count of subscribers that got the message.
/// </summary>
internal sealed class RawRedisClient : IDisposable
{
    private readonly System.Net.Sockets.TcpClient _client = new();
    private NetworkStream _stream = null!;

    private RawRedisClient()
    {
    }

    public static async Task<RawRedisClient> ConnectAsync(int port)
    {
        var client = new RawRedisClient();
        await client._client.ConnectAsync(IPAddress.Loopback, port);
        client._stream = client._client.GetStream();
        return client;
    }

    /// <summary>PUBLISH channel message, then the integer reply (the receivers).</summary>
    public async Task<long> PublishAsync(string channel, byte[] message)
    {
        var channelBytes = Encoding.UTF8.GetBytes(channel);
        var request = new System.IO.MemoryStream();
        request.Write(Encoding.ASCII.GetBytes($"*3\r\n$7\r\nPUBLISH\r\n${channelBytes.Length}\r\n"));
        request.Write(channelBytes);
        request.Write(Encoding.ASCII.GetBytes($"\r\n${message.Length}\r\n"));
        request.Write(message);
        request.Write("\r\n"u8);
        using var cancel = new CancellationTokenSource(Wait.Default);
        await _stream.WriteAsync(request.ToArray(), cancel.Token);
        var reply = new StringBuilder();
        var one = new byte[1];
        while (!reply.ToString().EndsWith("\r\n", StringComparison.Ordinal))
        {
            if (await _stream.ReadAsync(one, cancel.Token) == 0)
                throw new InvalidOperationException("Redis closed the connection");
            reply.Append((char)one[0]);
        }
        var line = reply.ToString().TrimEnd();
        if (!line.StartsWith(':'))
            throw new InvalidOperationException($"Redis answered {line}");
        return long.Parse(line.AsSpan(1));
    }

    public void Dispose() => _client.Dispose();
}
