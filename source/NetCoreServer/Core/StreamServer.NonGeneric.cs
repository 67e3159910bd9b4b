using System;
using System.Net.Sockets;
using System.Threading;

namespace NetCoreServer;

/// <summary>
/// What every stream server has whatever its session type: the options its sessions start with, the byte counters
/// they add to, and the server hooks they raise. Sessions are not generic (NetCoreServer's
/// <c>TcpSession(TcpServer)</c>), so this is how a session reaches its <see cref="StreamServer{TSession}"/>. Public as
/// the type that holds any stream server (TCP, TLS, Unix socket) for code that reads its options or counters; its
/// constructor is not reachable outside the library, so servers derive from <see cref="TcpServer"/>,
/// <see cref="SslServer"/> or <see cref="UdsServer"/>.
/// </summary>
public abstract partial class StreamServer
{
    private long _bytesSent;
    private long _bytesReceived;

    private protected StreamServer()
    {
    }

    /// <summary>Bytes sent by all sessions since the server started.</summary>
    public long BytesSent => Interlocked.Read(ref _bytesSent);

    /// <summary>Bytes received by all sessions since the server started.</summary>
    public long BytesReceived => Interlocked.Read(ref _bytesReceived);

    /// <summary>The one timer wheel of this server's connections (idle, keep-alive, header and close timeouts).</summary>
    internal Core.TimerWheel Timers { get; } = new();

    private protected void ResetCounters()
    {
        Interlocked.Exchange(ref _bytesSent, 0);
        Interlocked.Exchange(ref _bytesReceived, 0);
    }

    /// <summary>A session's bytes, added to the server-wide counters. No user code.</summary>
    internal void Count(long received, long sent)
    {
        if (received != 0)
            Interlocked.Add(ref _bytesReceived, received);
        if (sent != 0)
            Interlocked.Add(ref _bytesSent, sent);
    }

    /// <summary>Applies the server's TCP options to an accepted socket (none for Unix sockets).</summary>
    internal void ConfigureAccepted(Socket socket)
    {
        if (socket.AddressFamily == AddressFamily.Unix)
            return;
        Tcp.TcpSocketOptions.Apply(socket, OptionKeepAlive, OptionTcpKeepAliveTime, OptionTcpKeepAliveInterval, OptionTcpKeepAliveRetryCount, OptionNoDelay);
    }

    // The server's hooks for one session, after the session's own; the generic server casts to its session type.
    internal abstract void RaiseConnecting(StreamSession session);

    internal abstract void RaiseConnected(StreamSession session);

    internal abstract void RaiseDisconnecting(StreamSession session);

    internal abstract void RaiseDisconnected(StreamSession session);

    /// <summary>The session's engine has finished: it leaves the server's sessions and admission counts. No user code.</summary>
    internal abstract void Unregister(StreamSession session);
}
