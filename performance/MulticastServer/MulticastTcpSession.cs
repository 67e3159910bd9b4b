using System;
using System.Net.Sockets;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>
/// A receiving end of the multicast. Its send queue is capped, so a slow client misses messages instead of making
/// the server's memory grow; a refused message and sent data are reported to the server's multicast loop.
/// </summary>
internal sealed class MulticastTcpSession : TcpSession
{
    private readonly MulticastTcpServer _server;

    public MulticastTcpSession(MulticastTcpServer server, int sendBufferLimit)
        : base(server)
    {
        _server = server;
        OptionSendBufferLimit = sendBufferLimit;
    }

    protected override void OnSent(long sent, long pending) => _server.NoteRoom();

    protected override void OnError(SocketError error)
    {
        if (error == SocketError.NoBufferSpaceAvailable)
            _server.NoteRefusal();
        else
            Console.Error.WriteLine($"Multicast session {Id} caught an error: {error}");
    }
}
