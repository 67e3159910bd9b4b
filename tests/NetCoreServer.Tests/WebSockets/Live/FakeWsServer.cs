using System;
using System.IO;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NetCoreServer.Transports;

namespace NetCoreServer.Tests.WebSockets.Live;

/// <summary>
/// A WebSocket server written for the tests on a bare listener (SslStream for WSS): it accepts one client, reads its
/// upgrade request and answers with whatever head a test wants, then exchanges raw bytes, so the library's client can
/// be checked against a server that misbehaves on purpose.
/// </summary>
internal sealed class FakeWsServer : IDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly WsTransport _transport;
    private Socket? _socket;
    private Stream? _stream;
    private byte[] _buffer = new byte[64 * 1024];
    private int _count;

    public FakeWsServer(WsTransport transport)
    {
        _transport = transport;
        _listener.Start();
    }

    public int Port => ((IPEndPoint)_listener.LocalEndpoint).Port;

    /// <summary>Accepts the client and reads its upgrade request; returns the request head.</summary>
    public async Task<string> AcceptAsync()
    {
        _socket = await _listener.AcceptSocketAsync();
        _stream = new NetworkStream(_socket, ownsSocket: false);
        if (_transport.IsSecure())
        {
            var ssl = new SslStream(_stream);
            await ssl.AuthenticateAsServerAsync(SslTestTransport.ServerCertificate);
            _stream = ssl;
        }
        while (true)
        {
            var end = _buffer.AsSpan(0, _count).IndexOf("\r\n\r\n"u8);
            if (end >= 0)
            {
                var head = Encoding.ASCII.GetString(_buffer, 0, end + 4);
                Consume(end + 4);
                return head;
            }
            await FillAsync();
        }
    }

    /// <summary>The accept value RFC 6455 §4.2.2 asks for the key in <paramref name="requestHead"/>.</summary>
    public static string AcceptFor(string requestHead)
    {
        var line = Array.Find(requestHead.Split("\r\n"), l => l.StartsWith("Sec-WebSocket-Key:", StringComparison.OrdinalIgnoreCase))!;
        var key = line["Sec-WebSocket-Key:".Length..].Trim();
        return Convert.ToBase64String(SHA1.HashData(Encoding.ASCII.GetBytes(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11")));
    }

    public async Task SendAsync(byte[] bytes)
    {
        await _stream!.WriteAsync(bytes);
        await _stream.FlushAsync();
    }

    /// <summary>Reads one whole client frame: (first byte, mask key or null, unmasked payload).</summary>
    public async Task<(byte First, byte[]? Mask, byte[] Payload)> ReadFrameAsync()
    {
        while (true)
        {
            var data = _buffer.AsSpan(0, _count);
            if (data.Length >= 2)
            {
                var length7 = data[1] & 0x7F;
                var masked = (data[1] & 0x80) != 0;
                var extra = length7 == 126 ? 2 : length7 == 127 ? 8 : 0;
                var header = 2 + extra + (masked ? 4 : 0);
                if (data.Length >= header)
                {
                    long length = length7 == 126 ? (data[2] << 8) | data[3] : length7 == 127 ? (long)System.Buffers.Binary.BinaryPrimitives.ReadUInt64BigEndian(data[2..]) : length7;
                    if (data.Length >= header + length)
                    {
                        var mask = masked ? data.Slice(2 + extra, 4).ToArray() : null;
                        var payload = data.Slice(header, (int)length).ToArray();
                        for (var i = 0; mask != null && i < payload.Length; i++)
                            payload[i] ^= mask[i % 4];
                        var first = data[0];
                        Consume(header + (int)length);
                        return (first, mask, payload);
                    }
                }
            }
            await FillAsync();
        }
    }

    /// <summary>True when the client closed the connection (end of stream or reset).</summary>
    public async Task<bool> ClientClosedAsync()
    {
        try
        {
            while (true)
            {
                _count = 0;
                if (!await FillAsync(throwAtEnd: false))
                    return true;
            }
        }
        catch (IOException)
        {
            return true;
        }
    }

    private async Task<bool> FillAsync(bool throwAtEnd = true)
    {
        if (_count == _buffer.Length)
            Array.Resize(ref _buffer, _buffer.Length * 2);
        var read = await _stream!.ReadAsync(_buffer.AsMemory(_count)).AsTask().WaitAsync(TimeSpan.FromSeconds(10));
        if (read == 0 && throwAtEnd)
            throw new EndOfStreamException("the client closed the connection");
        _count += read;
        return read > 0;
    }

    private void Consume(int bytes)
    {
        _count -= bytes;
        _buffer.AsSpan(bytes, _count).CopyTo(_buffer);
    }

    public void Dispose()
    {
        _stream?.Dispose();
        _socket?.Dispose();
        _listener.Stop();
    }
}
