using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer;
using NetCoreServer.Examples;

namespace WsChatClient;

/// <summary>
/// A WebSocket chat connection that prints every message it receives on a line of its own and, until
/// <see cref="DisconnectAndStopAsync"/> is called, connects again one second after every disconnect or failed
/// attempt, so it outlives server restarts (see <see cref="WsChatClientEvents"/>).
/// </summary>
internal sealed class ChatClient : WsClient, IChatClient
{
    private readonly WsChatClientEvents _events;

    public ChatClient(string address, int port)
        : base(address, port)
    {
        _events = new WsChatClientEvents("WS", ConnectAsync);
    }

    public ChatClient(UnixDomainSocketEndPoint endpoint)
        : base(endpoint)
    {
        _events = new WsChatClientEvents("WS", ConnectAsync);
    }

    public async Task DisconnectAndStopAsync()
    {
        _events.Reconnect.Stop();
        // The close handshake tells the server why; the socket is closed either way.
        CloseAsync(1000);
        await DisconnectAndWaitAsync().ConfigureAwait(false);
    }

    // One console line is one WebSocket text message: the message framing keeps lines apart, so the line ending the
    // console adds is not sent.
    bool IChatClient.SendAsync(string text) => SendTextAsync(text.TrimEnd('\n'));

    public override void OnWsConnected(HttpResponse response) => _events.Upgraded(Id);

    public override void OnWsReceived(byte[] buffer, long offset, long size) => WsChatClientEvents.Received(buffer, offset, size);

    protected override void OnDisconnected()
    {
        base.OnDisconnected();
        _events.Disconnected(Id, DisconnectReason);
    }

    protected override void OnError(SocketError error) => _events.Error(error);
}
