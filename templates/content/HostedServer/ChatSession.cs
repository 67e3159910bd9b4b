using NetCoreServer;

namespace HostedServer;

/// <summary>One connected user: greeted once, and every byte it sends goes to everyone connected (itself included).</summary>
internal sealed class ChatSession : TcpSession
{
    public ChatSession(TcpServer server)
        : base(server)
    {
    }

    protected override void OnConnected() => SendAsync("Welcome to HostedServer! Every line you send goes to everyone connected.\n");

    // Runs on this session's receive side, never overlapping itself; the buffer is only valid during the call, and
    // Multicast copies it. Bytes are relayed as they come: a line read in two pieces may reach others in two pieces.
    protected override void OnReceived(byte[] buffer, long offset, long size) => Server.Multicast(buffer, offset, size);
}
