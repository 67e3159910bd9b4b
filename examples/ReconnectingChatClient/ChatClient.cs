using System;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Examples;

namespace ReconnectingChatClient;

/// <summary>
/// A TCP chat client that reconnects by itself: NetCoreServer's pattern (in OnDisconnected, wait, then ConnectAsync)
/// with a growing wait. A failed connect also ends in OnDisconnected, so that one hook retries both a lost connection
/// and a refused attempt. <see cref="DisconnectAndStopAsync"/> ends it for good.
/// </summary>
internal sealed class ChatClient : NetCoreServer.TcpClient, IChatClient
{
    private readonly Backoff _backoff = new(TimeSpan.FromMilliseconds(100), TimeSpan.FromSeconds(5));
    private readonly CancellationTokenSource _stop = new();
    // Orders a scheduled connect against stopping: once stopped, no connect starts.
    private readonly Lock _gate = new();
    // OnReceived calls never overlap, so one decoder needs no lock.
    private readonly Utf8ChunkDecoder _decoder = new();
    private volatile bool _wasConnected;

    public ChatClient(string address, int port)
        : base(address, port)
    {
    }

    public async Task DisconnectAndStopAsync()
    {
        lock (_gate)
            _stop.Cancel();
        // DisconnectAndWaitAsync closes a connection; a connect under way is abandoned by Disconnect.
        if (IsConnecting)
            Disconnect();
        await DisconnectAndWaitAsync().ConfigureAwait(false);
    }

    protected override void OnConnected()
    {
        _backoff.Reset();
        _decoder.Reset();
        _wasConnected = true;
        Console.WriteLine($"Reconnecting chat client connected to {Address}:{Port} (session {Id})");
    }

    protected override void OnDisconnected()
    {
        var lost = _wasConnected;
        _wasConnected = false;
        if (_stop.IsCancellationRequested)
        {
            Console.WriteLine("Reconnecting chat client disconnected");
            return;
        }
        var delay = _backoff.Next(out var attempt);
        Console.WriteLine(lost
            ? $"Reconnecting chat client lost the connection ({DisconnectReason}); retry {attempt} in {delay.TotalMilliseconds:0} ms"
            : $"Reconnecting chat client could not connect; retry {attempt} in {delay.TotalMilliseconds:0} ms");
        // NetCoreServer sleeps in this hook; a timer holds no thread, and a connect that fails inline cannot nest in it.
        _ = ConnectAfterAsync(delay);
    }

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        Console.Out.Write(_decoder.Decode(buffer.AsSpan(checked((int)offset), checked((int)size))));
        Console.Out.Flush();
    }

    protected override void OnError(SocketError error)
    {
        Console.WriteLine($"Reconnecting chat client caught an error with code {error}");
    }

    private async Task ConnectAfterAsync(TimeSpan delay)
    {
        try
        {
            await Task.Delay(delay, _stop.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            return;
        }
        lock (_gate)
        {
            // False when a manual reconnect ('!') got there first: nothing to do.
            if (!_stop.IsCancellationRequested)
                ConnectAsync();
        }
    }
}
