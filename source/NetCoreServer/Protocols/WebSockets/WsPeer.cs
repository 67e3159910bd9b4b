using System;
using System.Text;
using System.Threading;
using NetCoreServer.Engine;
using NetCoreServer.Transports;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// One end of a WebSocket connection, whatever the transport: what <see cref="WsServerPeer"/> (sessions) and
/// <see cref="WsClientPeer"/> (clients) share, sending, closing and the blocking receive, which each side answers in
/// its own way (<see cref="ReceiveMessage"/>, <see cref="WaitClosed"/>). Its one state, the framer of the upgraded
/// connection, is published with a volatile write once the upgrade is done; the framer guards its own state, so every
/// method here may be called from any thread.
/// </summary>
internal abstract class WsPeer<THost>
    where THost : class, IWsPeerHost
{
    // The framer of the upgraded connection; null before the upgrade (and for a client, between connections).
    private WsConnection? _connection;

    private protected WsPeer(THost host) => Host = host;

    private protected THost Host { get; }

    /// <summary>The framer once upgraded (its 101 queued, for a session), else null.</summary>
    public WsConnection? Connection => Volatile.Read(ref _connection);

    public string? Subprotocol => Connection?.Subprotocol;

    public bool IsOpen => Connection?.IsOpen ?? false;

    /// <summary>Bytes of the frame on the wire once handed to the socket; 0 when refused.</summary>
    public long Send(WsOpcode opcode, ReadOnlySpan<byte> payload) => Connection?.Send(opcode, payload, blocking: true) ?? 0;

    public long Send(WsOpcode opcode, ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return Send(opcode, bytes.Span);
    }

    /// <summary>True when the frame is queued.</summary>
    public bool SendAsync(WsOpcode opcode, ReadOnlySpan<byte> payload) => (Connection?.Send(opcode, payload, blocking: false) ?? 0) > 0;

    public bool SendAsync(WsOpcode opcode, ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return SendAsync(opcode, bytes.Span);
    }

    public long SendClose(int status, ReadOnlySpan<byte> reason) => Connection?.SendClose(status, reason, blocking: true) ?? 0;

    public long SendClose(int status, ReadOnlySpan<char> reason)
    {
        using var bytes = PooledUtf8.Encode(reason);
        return SendClose(status, bytes.Span);
    }

    public bool SendCloseAsync(int status, ReadOnlySpan<byte> reason) => (Connection?.SendClose(status, reason, blocking: false) ?? 0) > 0;

    public bool SendCloseAsync(int status, ReadOnlySpan<char> reason)
    {
        using var bytes = PooledUtf8.Encode(reason);
        return SendCloseAsync(status, bytes.Span);
    }

    /// <summary>Sends a close frame and waits as the side does (<see cref="WaitClosed"/>); before the upgrade, disconnects at once.</summary>
    public bool Close(int status, ReadOnlySpan<byte> reason)
    {
        var ws = Connection;
        if (ws == null)
            return DisconnectBeforeUpgrade();
        if (!Host.IsConnected)
            return false;
        ws.SendClose(status, reason, blocking: true);
        WaitClosed();
        return true;
    }

    /// <summary>Queues a close frame, then waits as the side does (<see cref="WaitClosed"/>); before the upgrade, disconnects at once.</summary>
    public bool CloseAsync(int status, ReadOnlySpan<byte> reason)
    {
        var ws = Connection;
        if (ws == null)
            return DisconnectBeforeUpgrade();
        if (!Host.IsConnected)
            return false;
        ws.SendClose(status, reason, blocking: false);
        WaitClosed();
        return true;
    }

    public string ReceiveText()
    {
        var message = ReceiveMessage();
        return message == null ? string.Empty : Encoding.UTF8.GetString(message);
    }

    public NetCoreServer.Buffer ReceiveBinary()
    {
        var message = ReceiveMessage();
        return message == null ? new NetCoreServer.Buffer() : new NetCoreServer.Buffer(message);
    }

    /// <summary>For a blocking send: waits until what is queued is handed to the socket; false when the connection ended first.</summary>
    public bool WaitSent()
    {
        var engine = Host.Engine;
        if (engine == null)
            return false;
        // Waiting inside OnSent/OnEmpty waits for the send loop itself: the frame is queued, as SendAsync would, and
        // the send counts as made. On an event loop's thread the loop goes on elsewhere while this waits.
        if (Hooks.Inside(engine, HookKind.Sending))
            return true;
        var flushed = engine.Flush();
        if (!flushed.IsCompleted)
            EventLoop.HandOffBeforeWaiting();
        return flushed.GetAwaiter().GetResult();
    }

    /// <summary>Raises OnWsDisconnected if the connection was upgraded; returns its framer for the side to release.</summary>
    public WsConnection? Disconnected()
    {
        var ws = Connection;
        if (ws != null)
            Host.OnWsDisconnected();
        return ws;
    }

    /// <summary>The next whole message for a blocking receive, or null when there is none.</summary>
    private protected abstract byte[]? ReceiveMessage();

    /// <summary>What Close and CloseAsync wait for once their close frame is sent or queued (or the disconnect before an upgrade started).</summary>
    private protected abstract void WaitClosed();

    private bool DisconnectBeforeUpgrade()
    {
        var started = Host.DisconnectEngine(DisconnectReason.Local);
        WaitClosed();
        return started;
    }

    private protected void Publish(WsConnection? connection) => Volatile.Write(ref _connection, connection);

    /// <summary>An upgraded connection starts disconnecting (the engine sends what a hook queued before it called Disconnect).</summary>
    private protected void RaiseDisconnecting()
    {
        if (Connection != null)
            Host.OnWsDisconnecting();
    }
}
