using System;
using System.Buffers;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;

namespace TcpChatClient;

/// <summary>
/// A chat connection that prints everything it receives and, until <see cref="DisconnectAndStopAsync"/> is called,
/// connects again one second after every disconnect or failed attempt, so it outlives server restarts.
/// </summary>
internal sealed class ChatClient : NetCoreServer.TcpClient
{
    private static readonly TimeSpan s_reconnectDelay = TimeSpan.FromSeconds(1);

    // A UTF-8 character may be split between two receives; the decoder keeps the partial bytes until the rest arrives.
    // OnReceived calls never overlap, so one decoder needs no lock.
    private readonly Decoder _decoder = Encoding.UTF8.GetDecoder();
    private volatile bool _stopping;
    private volatile bool _retrying;

    public ChatClient(string address, int port)
        : base(address, port)
    {
    }

    /// <summary>Disconnects for good: no reconnect follows.</summary>
    public Task DisconnectAndStopAsync()
    {
        _stopping = true;
        return DisconnectAndWaitAsync();
    }

    protected override void OnConnected()
    {
        _retrying = false;
        _decoder.Reset();
        Console.WriteLine($"Chat TCP client connected a new session with Id {Id}");
    }

    protected override void OnDisconnected()
    {
        if (_stopping)
        {
            Console.WriteLine($"Chat TCP client disconnected a session with Id {Id}");
            return;
        }

        // One line per outage, not one per failed attempt.
        if (!_retrying)
        {
            _retrying = true;
            Console.WriteLine($"Chat TCP client disconnected a session with Id {Id} ({DisconnectReason}); reconnecting every {s_reconnectDelay.TotalSeconds:0} s");
        }

        // Wait on a timer, not with Thread.Sleep here: a failed connect can report OnDisconnected inline from
        // ConnectAsync, so sleeping and reconnecting inside this hook would nest one attempt in the next and block
        // a thread-pool thread for every second the server is away.
        _ = Task.Delay(s_reconnectDelay).ContinueWith(_ => ReconnectLater(), TaskScheduler.Default);
    }

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        var bytes = buffer.AsSpan(checked((int)offset), checked((int)size));
        var chars = ArrayPool<char>.Shared.Rent(Encoding.UTF8.GetMaxCharCount(bytes.Length));
        try
        {
            var count = _decoder.GetChars(bytes, chars, flush: false);
            Console.Out.Write(chars, 0, count);
            Console.Out.Flush();
        }
        finally
        {
            ArrayPool<char>.Shared.Return(chars);
        }
    }

    protected override void OnError(SocketError error)
    {
        Console.WriteLine($"Chat TCP client caught an error with code {error}");
    }

    private void ReconnectLater()
    {
        // A console '!' (ReconnectAsync) may already have connected again; ConnectAsync then just returns false.
        if (!_stopping)
            ConnectAsync();
    }
}
