using System;
using System.Net;
using System.Net.Sockets;

namespace NetCoreServer;

// The server's virtual hooks (no state): a file of their own only because the server would pass 400 lines with them.
public abstract partial class StreamServer<TSession>
{
    /// <summary>Called after the listening socket is bound, before it listens; on the thread calling <see cref="Start"/>.</summary>
    protected virtual void OnStarting()
    {
    }

    /// <summary>Called when the server has started; on the thread calling <see cref="Start"/>.</summary>
    protected virtual void OnStarted()
    {
    }

    /// <summary>Called when <see cref="Stop"/> begins, before sessions are disconnected; on the thread calling <see cref="Stop"/>.</summary>
    protected virtual void OnStopping()
    {
    }

    /// <summary>Called when the server has stopped and its sessions have closed (or, inside a hook, were told to); on the thread calling <see cref="Stop"/>.</summary>
    protected virtual void OnStopped()
    {
    }

    /// <summary>
    /// Called on the accepting thread for each accepted connection that passed the caps, before its session is created.
    /// Return false to refuse it (closed at once, reported to <see cref="OnRefused"/> with <see cref="RefusalReason.Refused"/>);
    /// a hook that throws refuses it too. The default accepts every connection.
    /// </summary>
    /// <param name="remoteEndPoint">The peer's address and port; for Unix sockets usually an unnamed endpoint; null when the peer already left.</param>
    /// <returns>True to accept the connection.</returns>
    protected virtual bool OnAccepting(EndPoint? remoteEndPoint) => true;

    /// <summary>
    /// Called on the accepting thread for each connection closed at once instead of becoming a session (over a cap, or
    /// refused by <see cref="OnAccepting"/>); no session hooks run for it. Under a flood it runs per connection: count, don't log.
    /// </summary>
    /// <param name="remoteEndPoint">The peer's endpoint, when known.</param>
    /// <param name="reason">Which cap refused it.</param>
    protected virtual void OnRefused(EndPoint? remoteEndPoint, RefusalReason reason)
    {
    }

    /// <summary>Called after the session's own OnConnecting, on the accepting thread.</summary>
    /// <param name="session">The connecting session.</param>
    protected virtual void OnConnecting(TSession session)
    {
    }

    /// <summary>Called after the session's own OnConnected, on the accepting thread, before the session receives anything.</summary>
    /// <param name="session">The connected session.</param>
    protected virtual void OnConnected(TSession session)
    {
    }

    /// <summary>Called after the session's own OnDisconnecting, on the thread that started the disconnect.</summary>
    /// <param name="session">The disconnecting session.</param>
    protected virtual void OnDisconnecting(TSession session)
    {
    }

    /// <summary>Called after the session's own OnDisconnected, on the same thread (a thread-pool thread, or the one that closed the socket); the session is unregistered right after.</summary>
    /// <param name="session">The disconnected session.</param>
    protected virtual void OnDisconnected(TSession session)
    {
    }

    /// <summary>
    /// Called on the accepting thread when <see cref="CreateSession"/> or a server hook raised by the accept loop threw; that connection is closed
    /// and accepting goes on. The default writes the exception to <see cref="System.Diagnostics.Trace"/>.
    /// </summary>
    /// <param name="exception">What was thrown.</param>
    protected virtual void OnHandlerException(Exception exception)
    {
        System.Diagnostics.Trace.TraceError("NetCoreServer: {0} {1} failed to accept a connection: {2}", GetType().Name, Id, exception);
    }

    /// <summary>Called for errors on the listening socket and on accepted sockets, on the accepting thread (ordinary resets and aborts are not reported).</summary>
    /// <param name="error">The socket error.</param>
    protected virtual void OnError(SocketError error)
    {
    }
}
