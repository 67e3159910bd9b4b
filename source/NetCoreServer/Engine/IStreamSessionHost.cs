using System;
using System.Net.Sockets;

namespace NetCoreServer.Engine;

/// <summary>
/// What the engine calls back into: a server session or a client. Each call except <see cref="EngineReleased"/> and
/// <see cref="EngineCounted"/> reaches user hooks, so the engine never makes one while holding a lock, and raises them
/// through <see cref="Hooks"/> (which records the running hook and applies the rule for exceptions). Implemented by
/// <see cref="StreamConnection"/> (every session and client) and by the engine tests' recording host, which drive the
/// engine over an in-memory transport without any public class.
/// </summary>
internal interface IStreamSessionHost
{
    /// <summary>The connection's options, read by the engine at each use: shared with other sessions until one is written (then the connection's own copy).</summary>
    EngineOptions EngineOptions { get; }

    /// <summary>Server sessions only (clients raise it before connecting): OnConnecting.</summary>
    void EngineConnecting();

    /// <summary>OnConnected: the connection is live.</summary>
    void EngineConnected();

    /// <summary>TLS only: the handshake starts.</summary>
    void EngineHandshaking();

    /// <summary>TLS only: the handshake succeeded; data flows from now on.</summary>
    void EngineHandshaked();

    /// <summary>
    /// Data arrived: what is new plus what was left unconsumed last time. Returns how many bytes from the front it
    /// consumed; the rest is handed again with the next data (at once, if it consumed something and more is left).
    /// The buffer is pooled and valid only during the call.
    /// </summary>
    int EngineReceived(byte[] buffer, int offset, int size);

    /// <summary>
    /// A hold (see <see cref="StreamSessionEngine.HoldReceiving"/>) ended and the engine kept nothing: a host that keeps
    /// unconsumed bytes of its own hands them to its protocol again now, before the next read.
    /// </summary>
    void EngineResumed()
    {
    }

    /// <summary>A batch was handed to the transport.</summary>
    void EngineSent(long sent, long pending);

    /// <summary>The connection became unwritable (pending bytes passed the high watermark) or writable again (back at the low one).</summary>
    void EngineWritabilityChanged(bool writable);

    /// <summary>The send queue became empty.</summary>
    void EngineEmpty();

    /// <summary>A socket error that is worth reporting (not an ordinary reset or abort).</summary>
    void EngineError(SocketError error);

    /// <summary>A hook threw; the connection is being torn down.</summary>
    void EngineHandlerException(Exception exception);

    /// <summary>Teardown started; runs once, after the connect hooks, before the socket closes (gracefully) or right after (abort).</summary>
    void EngineDisconnecting();

    /// <summary>Socket closed and both loops stopped; runs once, last.</summary>
    void EngineDisconnected();

    /// <summary>The engine is finished (after <see cref="EngineDisconnected"/>, or without any hook when the connection ended before its hooks began). No user code.</summary>
    void EngineReleased();

    /// <summary>Byte counters for server-wide statistics. No user code.</summary>
    void EngineCounted(long received, long sent);
}
