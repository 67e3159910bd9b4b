using System;
using System.IO;
using System.Linq;
using System.Net;
using System.Net.Security;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;

namespace NetCoreServer.Tests.Http;

/// <summary>One response read from a raw connection: its status, head and Content-Length body.</summary>
internal sealed record Answer(int Status, string Head, byte[] Body)
{
    public string Text => Encoding.UTF8.GetString(Body);
}

/// <summary>Reads responses one by one (Content-Length framing), keeping what follows for the next.</summary>
internal sealed class AnswerReader(Stream stream)
{
    public AnswerReader(Socket socket)
        : this(new NetworkStream(socket, ownsSocket: false))
    {
    }

    private readonly MemoryStream _pending = new();
    private readonly byte[] _buffer = new byte[64 * 1024];

    /// <summary>A raw connection to a test server: plain, or TLS over it for the secure transports (any certificate).</summary>
    public static async Task<Stream> Open(HttpTestTransport transport, int port)
    {
        var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        await socket.ConnectAsync(IPAddress.Loopback, port);
        Stream stream = new NetworkStream(socket, ownsSocket: true);
        if (!transport.Secure)
            return stream;
        var tls = new SslStream(stream, leaveInnerStreamOpen: false, (_, _, _, _) => true);
        await tls.AuthenticateAsClientAsync("localhost");
        return tls;
    }

    /// <summary>The next response, or null when the connection closed first.</summary>
    public async Task<Answer?> Next(TimeSpan? timeout = null)
    {
        var limit = timeout ?? Wait.Default;
        int headEnd;
        while ((headEnd = IndexOfHeadEnd()) < 0)
        {
            if (!await Fill(limit))
                return null;
        }
        var data = _pending.GetBuffer();
        var head = Encoding.ASCII.GetString(data, 0, headEnd);
        var status = int.Parse(head.Substring(9, 3));
        var lengthLine = head.Split("\r\n").FirstOrDefault(l => l.StartsWith("Content-Length:", StringComparison.OrdinalIgnoreCase));
        var length = lengthLine == null ? 0 : int.Parse(lengthLine["Content-Length:".Length..].Trim());
        while (_pending.Length < headEnd + 4 + length)
        {
            if (!await Fill(limit))
                return null;
        }
        data = _pending.GetBuffer();
        var body = data.AsSpan(headEnd + 4, length).ToArray();
        var rest = data.AsSpan(headEnd + 4 + length, (int)_pending.Length - headEnd - 4 - length).ToArray();
        _pending.SetLength(0);
        _pending.Write(rest);
        return new Answer(status, head, body);
    }

    /// <summary>True when the server closes the connection with nothing more sent; false when more bytes come.</summary>
    public async Task<bool> Closed(TimeSpan? timeout = null)
    {
        if (_pending.Length > 0)
            return false;
        try
        {
            return !await Fill(timeout ?? Wait.Default);
        }
        catch (IOException)
        {
            return true;
        }
    }

    private int IndexOfHeadEnd() => _pending.GetBuffer().AsSpan(0, (int)_pending.Length).IndexOf("\r\n\r\n"u8);

    private async Task<bool> Fill(TimeSpan timeout)
    {
        var n = await Wait.For(stream.ReadAsync(_buffer.AsMemory()).AsTask(), "more of a response", timeout);
        if (n == 0)
            return false;
        _pending.Write(_buffer, 0, n);
        return true;
    }
}
