using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Text;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.AttackMemory;

/// <summary>The attackers: clients that make the server hold memory and never read; <see cref="Leave"/> closes them all.</summary>
internal sealed class Attacks
{
    private readonly List<Socket> _sockets = [];

    public static int DefaultClients(string scenario) => scenario switch
    {
        "http" => 3000,
        "stream" => 300,
        _ => 50,
    };

    /// <summary>Connects <paramref name="clients"/> clients and starts their attack.</summary>
    public async Task StartAsync(string scenario, int port, int clients)
    {
        var request = scenario switch
        {
            "http" => Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("GET /index.html HTTP/1.1\r\nHost: x\r\n\r\n", 4000))),
            "stream" => Encoding.ASCII.GetBytes("GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n"),
            _ => Encoding.ASCII.GetBytes("GET /chat HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"),
        };
        // A binary frame without FIN carrying 16 MiB minus a little (the default message limit): a message never finished.
        var fragment = scenario == "ws" ? Fragment(16 * 1024 * 1024 - 1024) : [];
        for (var i = 0; i < clients; i++)
        {
            var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { ReceiveBufferSize = 16 * 1024 };
            _sockets.Add(socket);
            await socket.ConnectAsync(IPAddress.Loopback, port);
            if (scenario == "ws")
            {
                await socket.SendAsync(request);
                await ReadHeadAsync(socket);
                _ = socket.SendAsync(fragment).ContinueWith(static t => t.Exception, TaskScheduler.Default);
            }
            else
            {
                // Not awaited: a server that stops reading leaves the send waiting until the socket closes.
                _ = socket.SendAsync(request).ContinueWith(static t => t.Exception, TaskScheduler.Default);
            }
        }
    }

    /// <summary>Every client leaves at once (a reset, as attackers do).</summary>
    public void Leave()
    {
        foreach (var socket in _sockets)
            socket.Close(0);
        _sockets.Clear();
    }

    private static async Task ReadHeadAsync(Socket socket)
    {
        var buffer = new byte[1024];
        var text = new StringBuilder();
        while (!text.ToString().Contains("\r\n\r\n", StringComparison.Ordinal))
        {
            var read = await socket.ReceiveAsync(buffer);
            if (read == 0)
                throw new InvalidOperationException("the server closed during the upgrade");
            text.Append(Encoding.ASCII.GetString(buffer, 0, read));
        }
    }

    private static byte[] Fragment(int length)
    {
        var frame = new byte[14 + length];
        frame[0] = 0x02;
        frame[1] = 0x80 | 127;
        for (var i = 0; i < 8; i++)
            frame[2 + i] = (byte)((long)length >> (8 * (7 - i)));
        RandomNumberGenerator.Fill(frame.AsSpan(10, 4));
        RandomNumberGenerator.Fill(frame.AsSpan(14));
        return frame;
    }
}
