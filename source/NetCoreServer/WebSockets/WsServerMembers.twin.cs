using System;
using NetCoreServer.Core;
using NetCoreServer.WebSockets;

// twin: NetCoreServer.WsServer NetCoreServer.WssServer
    /// <summary>WebSocket settings of this server's sessions (message size limit, close timeout, keep-alive, deflate, subprotocols).</summary>
    public WsOptions Ws { get; } = new();

    /// <summary>
    /// Queues the same raw bytes on every session that has upgraded and not started closing (plain HTTP sessions get
    /// nothing), as NetCoreServer's WsServer does; the bytes must be whole frames. Copied once, and a session that does
    /// not read is handled by <see cref="StreamServer{TSession}.OptionSlowConsumerPolicy"/>, as for any server.
    /// </summary>
    /// <param name="buffer">Whole frames to send.</param>
    /// <returns>False if the server is not started.</returns>
    public override bool Multicast(ReadOnlySpan<byte> buffer)
    {
        WsConnection.FlushHeldOfThisThread();
        return base.Multicast(buffer);
    }

    // Under the server's multicast lock: no lock of the session is taken here (its hooks may multicast while sending).
    private protected override bool ReceivesMulticast(StreamSession session) => session is IWsServerSession { Framer.IsOpen: true };

    /// <summary>
    /// Starts the close handshake with every upgraded session: one close frame (the status, an empty payload for one that
    /// may not travel, and the UTF-8 reason cut to 123 bytes) is encoded once and queued on each; each session closes
    /// when its client answers or <see cref="WsOptions.CloseTimeout"/> passes. Sessions that have not upgraded are disconnected.
    /// </summary>
    /// <param name="status">The close status (1001 going away suits a shutdown).</param>
    /// <param name="buffer">The UTF-8 reason.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool CloseAll(int status, ReadOnlySpan<byte> buffer)
    {
        if (!IsStarted)
            return false;
        Span<byte> payload = stackalloc byte[WsFrameEncoder.MaxControlPayload];
        var length = WsFrameEncoder.WriteClosePayload(payload, status, buffer);
        using var frame = WsFrameEncoder.RentServerFrame(WsOpcode.Close, payload[..length]);
        foreach (var session in SessionSnapshot)
        {
            if (session is IWsServerSession { Framer: { } ws })
                ws.SendPreparedClose(frame.Span);
            else
                session.Disconnect();
        }
        return true;
    }

    /// <summary>Closes every session with status 1000; see <see cref="CloseAll(int, ReadOnlySpan{byte})"/>.</summary>
    /// <returns>False if the server is not started.</returns>
    public virtual bool CloseAll() => CloseAll(1000, ReadOnlySpan<byte>.Empty);

    /// <summary>Closes every session with a status; see <see cref="CloseAll(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool CloseAll(int status) => CloseAll(status, ReadOnlySpan<byte>.Empty);

    /// <summary>Closes every session with a status and reason; see <see cref="CloseAll(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="text">The reason, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool CloseAll(int status, string text) => CloseAll(status, text.AsSpan());

    /// <summary>Closes every session with a status and reason; see <see cref="CloseAll(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="text">The reason, sent as UTF-8.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool CloseAll(int status, ReadOnlySpan<char> text)
    {
        using var bytes = PooledUtf8.Encode(text);
        return CloseAll(status, bytes.Span);
    }

    /// <summary>Closes every session with a status and reason; see <see cref="CloseAll(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="buffer">The UTF-8 reason.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool CloseAll(int status, byte[] buffer) => CloseAll(status, buffer.AsSpan());

    /// <summary>Closes every session with a status and reason; see <see cref="CloseAll(int, ReadOnlySpan{byte})"/>.</summary>
    /// <param name="status">The close status.</param>
    /// <param name="buffer">Buffer holding the UTF-8 reason.</param>
    /// <param name="offset">Offset of the reason.</param>
    /// <param name="size">Size of the reason.</param>
    /// <returns>False if the server is not started.</returns>
    public virtual bool CloseAll(int status, byte[] buffer, long offset, long size) => CloseAll(status, buffer.AsSpan(checked((int)offset), checked((int)size)));

    /// <summary>Encodes one server frame and multicasts its bytes; false for a control payload over 125 bytes.</summary>
    private bool MulticastFrame(WsOpcode opcode, ReadOnlySpan<byte> payload)
    {
        if (WsFrameEncoder.IsControl(opcode) && payload.Length > WsFrameEncoder.MaxControlPayload)
            return false;
        using var frame = WsFrameEncoder.RentServerFrame(opcode, payload);
        return Multicast(frame.Span);
    }
