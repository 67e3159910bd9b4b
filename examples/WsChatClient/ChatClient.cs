using System;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer;
using NetCoreServer.Examples;

namespace WsChatClient;

/// <summary>
/// A WebSocket chat connection that prints every message it receives on a line of its own and, until
/// <see cref="DisconnectAndStopAsync"/> is called, connects again one second after every disconnect or failed
/// attempt, so it outlives server restarts.
/// </summary>
internal sealed class ChatClient : WsClient, IChatClient
{
    private readonly AutoReconnect _reconnect;

    public ChatClient(string address, int port)
        : base(address, port)
    {
        _reconnect = new AutoReconnect(ConnectAsync);
    }

    public async Task DisconnectAndStopAsync()
    {
        _reconnect.Stop();
        // The close handshake tells the server why; the socket is closed either way.
        CloseAsync(1000);
        await DisconnectAndWaitAsync().ConfigureAwait(false);
    }

    // One console line is one WebSocket text message: the message framing keeps lines apart, so the line ending the
    // console adds is not sent.
    bool IChatClient.SendAsync(string text) => SendTextAsync(text.TrimEnd('\n'));

    public override void OnWsConnected(HttpResponse response)
    {
        _reconnect.Recovered();
        Console.WriteLine($"Chat WS client connected a new session with Id {Id}");
    }

    public override void OnWsReceived(byte[] buffer, long offset, long size)
    {
        Console.WriteLine(WsChat.Decode(buffer, offset, size));
    }

    protected override void OnDisconnected()
    {
        base.OnDisconnected();
        if (_reconnect.IsStopped)
            Console.WriteLine($"Chat WS client disconnected a session with Id {Id}");
        else if (_reconnect.Disconnected())
            Console.WriteLine($"Chat WS client disconnected a session with Id {Id} ({DisconnectReason}); reconnecting every {_reconnect.Delay.TotalSeconds:0} s");
    }

    protected override void OnError(SocketError error)
    {
        if (!_reconnect.IsRecovering)
            Console.WriteLine($"Chat WS client caught an error with code {error}");
    }
}
