using System;
using System.Net.Sockets;
using System.Text;
using System.Threading.Tasks;
using NetCoreServer;
using NetCoreServer.Examples;

namespace LineChatClient;

/// <summary>
/// A line chat connection: prints each whole line it receives and, until <see cref="DisconnectAndStopAsync"/> is
/// called, connects again one second after every disconnect or failed attempt.
/// </summary>
internal sealed class ChatClient : NetCoreServer.TcpClient, IChatClient
{
    private readonly AutoReconnect _reconnect;

    public ChatClient(string address, int port)
        : base(address, port)
    {
        Framing = MessageFraming.Lines(4096);
        _reconnect = new AutoReconnect(ConnectAsync);
    }

    public Task DisconnectAndStopAsync()
    {
        _reconnect.Stop();
        return DisconnectAndWaitAsync();
    }

    protected override void OnConnected()
    {
        _reconnect.Recovered();
        Console.WriteLine($"Chat Line client connected a new session with Id {Id}");
    }

    protected override void OnDisconnected()
    {
        if (_reconnect.IsStopped)
            Console.WriteLine($"Chat Line client disconnected a session with Id {Id}");
        else if (_reconnect.Disconnected())
            Console.WriteLine($"Chat Line client disconnected a session with Id {Id} ({DisconnectReason}); reconnecting every {_reconnect.Delay.TotalSeconds:0} s");
    }

    protected override void OnReceivedMessage(ReadOnlySpan<byte> line)
    {
        Console.Out.WriteLine(Encoding.UTF8.GetString(line));
        Console.Out.Flush();
    }

    protected override void OnError(SocketError error) => Console.WriteLine($"Chat Line client caught an error with code {error}");
}
