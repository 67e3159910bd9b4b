using System.Net.Sockets;

namespace NetCoreServer;

/// <summary>What a session needs from its server, whatever the server's session type.</summary>
internal interface ISessionOwner
{
    int ReceiveBufferSize { get; }

    int SendBufferSize { get; }

    System.TimeSpan IdleTimeout { get; }

    void ConfigureAccepted(Socket socket);

    void RaiseConnecting(StreamSession session);

    void RaiseConnected(StreamSession session);

    void RaiseDisconnecting(StreamSession session);

    void RaiseDisconnected(StreamSession session);

    void Unregister(StreamSession session);

    void Count(long received, long sent);
}
