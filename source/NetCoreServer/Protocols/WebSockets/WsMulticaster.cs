using System;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// The WebSocket part of a server, shared by <see cref="WsServer"/> (TCP) and <see cref="WssServer"/> (TLS): its
/// options, and frames encoded once and queued on every upgraded session (multicast, the close-all handshake). No
/// state but the options; safe from any thread, as the server's Multicast is.
/// </summary>
internal sealed class WsMulticaster
{
    private readonly IWsServerHost _server;

    public WsMulticaster(IWsServerHost server) => _server = server;

    public WsOptions Options { get; } = new();

    /// <summary>Under the server's multicast lock: no lock of the session is taken (its hooks may multicast while sending).</summary>
    public static bool ReceivesMulticast(IProtocolSession session) => session is IWsServerSession { Framer.IsOpen: true };

    /// <summary>
    /// Encodes one server frame and queues its bytes on every upgraded session; a text or binary message then goes to the
    /// server's relay, if any. False for a control payload over 125 bytes.
    /// </summary>
    public bool Multicast(WsOpcode opcode, ReadOnlySpan<byte> payload)
    {
        if (!MulticastLocal(opcode, payload, null))
            return false;
        if (opcode is WsOpcode.Text or WsOpcode.Binary && !payload.IsEmpty)
            _server.MulticastRelay?.OnMulticast(opcode == WsOpcode.Text ? MulticastKind.Text : MulticastKind.Binary, payload);
        return true;
    }

    public bool Multicast(WsOpcode opcode, ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return Multicast(opcode, bytes.Span);
    }

    /// <summary>
    /// One frame, encoded once, on the upgraded sessions <paramref name="filter"/> admits; never relayed. The filter is
    /// the server's (a <c>Func&lt;StreamSession, bool&gt;</c>), handed back to it unread: this class names no session class.
    /// </summary>
    public bool MulticastLocal(WsOpcode opcode, ReadOnlySpan<byte> payload, Delegate? filter)
    {
        if (WsFrameEncoder.IsControl(opcode) && payload.Length > WsFrameEncoder.MaxControlPayload)
            return false;
        using var frame = WsFrameEncoder.RentServerFrame(opcode, payload);
        return _server.PublishFrames(frame.Span, filter);
    }

    public static WsOpcode OpcodeOf(MulticastKind kind) => kind == MulticastKind.Text ? WsOpcode.Text : WsOpcode.Binary;

    /// <summary>A text or binary message to one upgraded session; false for a session not (or no longer) open.</summary>
    public static bool SendKind(IProtocolSession session, MulticastKind kind, ReadOnlySpan<byte> payload)
        => kind == MulticastKind.Raw
            ? session.SendAsync(payload)
            : session is IWsServerSession { Framer: { IsOpen: true } framer } && framer.Send(OpcodeOf(kind), payload, blocking: false) > 0;

    /// <summary>
    /// <see cref="StreamServer.MulticastRelayed"/> of a WebSocket server: text and binary payloads are framed here; raw
    /// bytes are taken only as whole data frames (<see cref="WsRelayedFrames"/>), whose messages are framed again here.
    /// </summary>
    public RelayedVerdict MulticastRelayed(MulticastKind kind, ReadOnlySpan<byte> payload, Delegate? filter)
    {
        if (kind != MulticastKind.Raw)
        {
            var verdict = RelayedPayload.Check(kind, payload);
            if (verdict == RelayedVerdict.Accepted)
                MulticastLocal(OpcodeOf(kind), payload, filter);
            return verdict;
        }
        var frames = WsRelayedFrames.Check(payload, Options.MaxMessageSize);
        if (frames == RelayedVerdict.Accepted)
            WsRelayedFrames.Walk(payload, Options.MaxMessageSize, (opcode, message) => MulticastLocal(opcode, message.Span, filter));
        return frames;
    }

    /// <summary><see cref="StreamServer.SendRelayed"/> of a WebSocket server, under the rule of <see cref="MulticastRelayed"/>.</summary>
    public static RelayedVerdict SendRelayed(IProtocolSession? session, MulticastKind kind, ReadOnlySpan<byte> payload, int maxMessageSize)
    {
        if (kind != MulticastKind.Raw)
        {
            var verdict = RelayedPayload.Check(kind, payload);
            if (verdict == RelayedVerdict.Accepted && session != null)
                SendKind(session, kind, payload);
            return verdict;
        }
        var frames = WsRelayedFrames.Check(payload, maxMessageSize);
        if (frames == RelayedVerdict.Accepted && session != null)
            WsRelayedFrames.Walk(payload, maxMessageSize, (opcode, message) => SendKind(session, opcode == WsOpcode.Text ? MulticastKind.Text : MulticastKind.Binary, message.Span));
        return frames;
    }

    /// <summary>One close frame, encoded once, queued on every upgraded session; sessions not upgraded are disconnected.</summary>
    public bool CloseAll(int status, ReadOnlySpan<byte> reason)
    {
        if (!_server.IsStarted)
            return false;
        Span<byte> payload = stackalloc byte[WsFrameEncoder.MaxControlPayload];
        var length = WsFrameEncoder.WriteClosePayload(payload, status, reason);
        using var frame = WsFrameEncoder.RentServerFrame(WsOpcode.Close, payload[..length]);
        foreach (var session in _server.Sessions)
        {
            if (session is IWsServerSession { Framer: { } ws })
                ws.SendPreparedClose(frame.Span);
            else
                session.Disconnect();
        }
        return true;
    }
}
