using System;
using System.Buffers.Binary;
using System.IO;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;
using NetCoreServer.Transports;

namespace NetCoreServer.Tests.WebSockets.Live;

/// <summary>
/// A WebSocket client written for the tests on a bare socket (and SslStream for WSS), independent of the library's
/// client and encoder: it sends an upgrade request and any bytes (frames built by <see cref="WsTestFrames"/>), and reads
/// the server's frames one by one, so each case can drive the server with exactly the frames it wants.
/// </summary>
internal sealed class RawWsClient : IDisposable
{
    private static readonly TimeSpan ReadTimeout = TimeSpan.FromSeconds(10);
    private readonly Socket _socket;
    private readonly Stream _stream;
    private byte[] _buffer = new byte[64 * 1024];
    private int _count;

    private RawWsClient(Socket socket, Stream stream)
    {
        _socket = socket;
        _stream = stream;
    }

    /// <summary>Connects (and for WSS completes TLS) without sending anything.</summary>
    public static async Task<RawWsClient> ConnectAsync(WsTransport transport, int port)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
        await socket.ConnectAsync(IPAddress.Loopback, port);
        Stream stream = new NetworkStream(socket, ownsSocket: false);
        if (transport.IsSecure())
        {
            var ssl = new SslStream(stream, false, TrustedBy.Authority(SslTestTransport.Authority));
            await ssl.AuthenticateAsClientAsync("localhost");
            stream = ssl;
        }
        return new RawWsClient(socket, stream);
    }

    /// <summary>Connects and upgrades with a plain request; returns the client with the 101 read.</summary>
    public static async Task<RawWsClient> UpgradeAsync(WsTransport transport, int port, string extraHeaders = "", byte[]? after = null)
    {
        var client = await ConnectAsync(transport, port);
        var request = Encoding.ASCII.GetBytes(UpgradeRequest(extraHeaders));
        await client.SendAsync(after == null ? request : WsTestFrames.Concat(request, after));
        var head = await client.ReadHeadAsync();
        if (!head.StartsWith("HTTP/1.1 101", StringComparison.Ordinal))
            throw new InvalidOperationException("the server did not upgrade: " + head);
        return client;
    }

    public const string Key = "dGhlIHNhbXBsZSBub25jZQ==";

    public static string UpgradeRequest(string extraHeaders = "")
        => "GET /chat HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + $"Sec-WebSocket-Key: {Key}\r\nSec-WebSocket-Version: 13\r\n{extraHeaders}\r\n";

    public async Task SendAsync(byte[] bytes)
    {
        await _stream.WriteAsync(bytes);
        await _stream.FlushAsync();
    }

    /// <summary>Sends a masked client frame (a fresh mask each) with first byte <paramref name="first"/>.</summary>
    public Task SendFrameAsync(int first, byte[] payload, int lengthBytes = 0)
        => SendAsync(WsTestFrames.Frame(first, payload, Mask(), lengthBytes));

    public static byte[] Mask() => [(byte)Random.Shared.Next(256), (byte)Random.Shared.Next(256), (byte)Random.Shared.Next(256), (byte)Random.Shared.Next(256)];

    /// <summary>Reads an HTTP head (up to the blank line) and returns it; what follows stays for the frame reads.</summary>
    public async Task<string> ReadHeadAsync()
    {
        while (true)
        {
            var end = _buffer.AsSpan(0, _count).IndexOf("\r\n\r\n"u8);
            if (end >= 0)
            {
                var head = Encoding.ASCII.GetString(_buffer, 0, end + 4);
                Consume(end + 4);
                return head;
            }
            if (!await FillAsync())
                throw new EndOfStreamException("the connection closed before a whole HTTP head: " + Encoding.ASCII.GetString(_buffer, 0, _count));
        }
    }

    /// <summary>Reads the rest of what the server sends until it closes, as text (an HTTP body).</summary>
    public async Task<string> ReadToEndAsync()
    {
        while (await FillAsync())
        {
        }
        var text = Encoding.UTF8.GetString(_buffer, 0, _count);
        Consume(_count);
        return text;
    }

    /// <summary>Reads one whole server frame; null when the server closed the connection first.</summary>
    public async Task<RawFrame?> ReadFrameAsync()
    {
        while (true)
        {
            if (TryParse(out var frame))
                return frame;
            if (!await FillAsync())
                return null;
        }
    }

    /// <summary>True when the server has closed the connection (end of stream or reset) within the read timeout, after any frames still queued.</summary>
    public async Task<bool> ServerClosedAsync()
    {
        while (true)
        {
            if (TryParse(out _))
                continue;
            try
            {
                if (!await FillAsync())
                    return true;
            }
            catch (IOException)
            {
                return true;
            }
        }
    }

    private bool TryParse(out RawFrame frame)
    {
        frame = default;
        var data = _buffer.AsSpan(0, _count);
        if (data.Length < 2)
            return false;
        var length7 = data[1] & 0x7F;
        var masked = (data[1] & 0x80) != 0;
        var header = 2 + (length7 == 126 ? 2 : length7 == 127 ? 8 : 0) + (masked ? 4 : 0);
        if (data.Length < header)
            return false;
        long length = length7 == 126 ? BinaryPrimitives.ReadUInt16BigEndian(data[2..]) : length7 == 127 ? (long)BinaryPrimitives.ReadUInt64BigEndian(data[2..]) : length7;
        if (data.Length < header + length)
            return false;
        frame = new RawFrame(data[0], masked, data.Slice(header, (int)length).ToArray());
        Consume(header + (int)length);
        return true;
    }

    private async Task<bool> FillAsync()
    {
        if (_count == _buffer.Length)
            Array.Resize(ref _buffer, _buffer.Length * 2);
        using var timeout = new CancellationTokenSource(ReadTimeout);
        int read;
        try
        {
            read = await _stream.ReadAsync(_buffer.AsMemory(_count), timeout.Token);
        }
        catch (OperationCanceledException)
        {
            throw new TimeoutException($"the server sent nothing for {ReadTimeout.TotalSeconds} s");
        }
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
        _stream.Dispose();
        _socket.Dispose();
    }
}

/// <summary>A frame as the server sent it: first byte (FIN, RSV, opcode), whether masked (never, from a server), payload.</summary>
internal readonly record struct RawFrame(byte First, bool Masked, byte[] Payload)
{
    public int Opcode => First & 0x0F;

    public bool Fin => (First & 0x80) != 0;

    public bool Rsv1 => (First & 0x40) != 0;

    public string Text => Encoding.UTF8.GetString(Payload);

    /// <summary>The status of a close frame (1005 when it has none).</summary>
    public int CloseStatus => Payload.Length >= 2 ? BinaryPrimitives.ReadUInt16BigEndian(Payload) : 1005;

    public string CloseReason => Payload.Length > 2 ? Encoding.UTF8.GetString(Payload, 2, Payload.Length - 2) : string.Empty;
}
