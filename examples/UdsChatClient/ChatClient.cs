using System;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer;
using NetCoreServer.Examples;

namespace UdsChatClient;

/// <summary>
/// A chat connection over a socket file that prints everything it receives and, until
/// <see cref="DisconnectAndStopAsync"/> is called, connects again one second after every disconnect or failed
/// attempt, so it outlives server restarts. Errors are printed once per outage, not once per attempt.
/// </summary>
internal sealed class ChatClient : UdsClient, IChatClient
{
    // OnReceived calls never overlap, so one decoder needs no lock.
    private readonly Utf8ChunkDecoder _decoder = new();
    private readonly AutoReconnect _reconnect;

    public ChatClient(UnixDomainSocketEndPoint endpoint)
        : base(endpoint)
    {
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
        _decoder.Reset();
        Console.WriteLine($"Chat Unix socket client connected a new session with Id {Id}");
    }

    protected override void OnDisconnected()
    {
        if (_reconnect.IsStopped)
            Console.WriteLine($"Chat Unix socket client disconnected a session with Id {Id}");
        else if (_reconnect.Disconnected())
            Console.WriteLine($"Chat Unix socket client disconnected a session with Id {Id} ({DisconnectReason}); reconnecting every {_reconnect.Delay.TotalSeconds:0} s");
    }

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        Console.Out.Write(_decoder.Decode(buffer.AsSpan(checked((int)offset), checked((int)size))));
        Console.Out.Flush();
    }

    protected override void OnError(SocketError error)
    {
        // A server that stopped removes its socket file, so each attempt during the outage fails with
        // AddressNotAvailable (ENOENT), not with the refusal the library keeps quiet: report it once per outage.
        if (!_reconnect.IsRecovering)
            Console.WriteLine($"Chat Unix socket client caught an error with code {error}");
    }
}
