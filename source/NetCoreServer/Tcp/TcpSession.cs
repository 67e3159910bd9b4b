using System;
using System.Net.Sockets;
using NetCoreServer.Tcp;
using NetCoreServer.Transports;

namespace NetCoreServer;

/// <summary>
/// One accepted TCP connection of a <see cref="TcpServer"/>. Subclass it, override the hooks, and return it
/// from <see cref="TcpServer.CreateSession"/>. Sending, receiving, limits and hooks come from
/// <see cref="StreamConnection"/>.
/// </summary>
public class TcpSession : StreamConnection
{
    /// <summary>Creates a session for <paramref name="server"/>; buffer sizes are copied from the server's options.</summary>
    /// <param name="server">The server that accepted the connection.</param>
    public TcpSession(TcpServer server)
    {
        Server = server;
        OptionReceiveBufferSize = server.OptionReceiveBufferSize;
        OptionSendBufferSize = server.OptionSendBufferSize;
    }

    /// <summary>The server this session belongs to.</summary>
    public TcpServer Server { get; }

    /// <summary>The connected socket (set when the session connects).</summary>
    public Socket Socket { get; private set; } = null!;

    /// <summary>
    /// Starts a graceful disconnect and returns at once: new sends are refused, data already accepted is delivered
    /// (bounded by <see cref="StreamConnection.OptionDisconnectTimeout"/>), then the socket closes and
    /// <see cref="StreamConnection.OnDisconnected"/> runs. Safe from any thread, any number of times.
    /// </summary>
    /// <returns>True if this call started the disconnect.</returns>
    public virtual bool Disconnect() => DisconnectEngine(NetCoreServer.DisconnectReason.Local);

    internal void Connect(Socket socket)
    {
        Socket = socket;
        if (socket.AddressFamily != AddressFamily.Unix)
        {
            TcpSocketOptions.Apply(socket, Server.OptionKeepAlive, Server.OptionTcpKeepAliveTime, Server.OptionTcpKeepAliveInterval,
                Server.OptionTcpKeepAliveRetryCount, Server.OptionNoDelay);
        }
        Attach(new SocketTransport(socket), startReceiving: true);
    }

    internal void DisconnectForStop() => DisconnectEngine(NetCoreServer.DisconnectReason.ServerStopped);

    internal System.Threading.Tasks.Task Completion => Engine?.Completion ?? System.Threading.Tasks.Task.CompletedTask;

    internal Core.SendStatus EnqueueMulticast(ReadOnlySpan<byte> data, Core.SharedBuffer? shared)
    {
        var engine = Engine;
        if (engine == null)
            return Core.SendStatus.NotConnected;
        var status = shared != null ? engine.EnqueueShared(shared) : engine.Enqueue(data);
        ReportRefusal(status);
        return status;
    }

    private protected override void NotifyConnecting()
    {
        OnConnecting();
        Server.RaiseConnecting(this);
    }

    private protected override void NotifyConnected()
    {
        OnConnected();
        Server.RaiseConnected(this);
    }

    private protected override void NotifyDisconnecting()
    {
        OnDisconnecting();
        Server.RaiseDisconnecting(this);
    }

    private protected override void NotifyDisconnected()
    {
        try
        {
            OnDisconnected();
            Server.RaiseDisconnected(this);
        }
        finally
        {
            Server.UnregisterSession(Id);
        }
    }

    private protected override void NotifyCounted(long received, long sent) => Server.Count(received, sent);
}
