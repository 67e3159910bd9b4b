using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;

namespace NetCoreServer.Transports;

/// <summary>
/// The only thing a stream transport (TCP, Unix socket, TLS) supplies to the session engine: its I/O.
/// The engine guarantees at most one receive and at most one send (or shutdown) are outstanding at a time, starts
/// neither before <see cref="HandshakeAsync"/> succeeded, and calls <see cref="IDisposable.Dispose"/> only after
/// <see cref="Close"/> and after every call it made has returned (the connection itself may have ended before a call
/// pending at the close returned).
/// </summary>
internal interface IStreamTransport : IDisposable
{
    /// <summary>The connected socket under the transport; null for a transport without one (the engine tests' in-memory one).</summary>
    Socket? Socket => null;

    /// <summary>
    /// The peer's endpoint as a server admitted the connection, for giving its per-address admission back when the
    /// session leaves (when the socket, closed by then, no longer tells it); null for clients, Unix sockets, and peers
    /// gone before they were admitted. Set once, before the engine starts.
    /// </summary>
    EndPoint? AdmittedEndPoint { get; set; }

    /// <summary>What a TLS transport negotiated; null for plain sockets, which have no handshake.</summary>
    ITlsInfo? Tls { get; }

    /// <summary>Runs the handshake (TLS) once; completes with the error that stopped it, or Success. Plain sockets complete at once.</summary>
    ValueTask<SocketError> HandshakeAsync();

    /// <summary>
    /// Receives into <paramref name="buffer"/>; an empty buffer waits for data without consuming it, and zero bytes on
    /// a non-empty buffer means the peer closed its side; WouldBlock (from a transport that reads at once, without
    /// waiting first) means nothing was there after all, and the next call waits. True when the receive completed at once
    /// (<paramref name="result"/> says how); false when it is pending, and then <paramref name="completion"/> is told
    /// once it completes. The engine's receive loop waits this way, so an idle connection holds no state machine. A
    /// transport whose receive is a <see cref="ValueTask{TResult}"/> (TLS) hands it on with
    /// <see cref="ReceiveRelay.Relay"/>.
    /// </summary>
    bool TryReceive(Memory<byte> buffer, IReceiveCompletion completion, out IoResult result);

    /// <summary>Sends every byte of the batch, in order.</summary>
    ValueTask<IoResult> SendAsync(IReadOnlyList<ArraySegment<byte>> batch);

    /// <summary>Blocking send used by the synchronous <c>Send</c> API when no asynchronous send is running.</summary>
    IoResult Send(ReadOnlySpan<byte> data);

    /// <summary>Blocking receive used by the synchronous <c>Receive</c> API when the receive loop is not running.</summary>
    IoResult Receive(Span<byte> buffer);

    /// <summary>Ends the sending side so the peer sees end of stream after all sent data (TLS: close_notify, then FIN). Never throws.</summary>
    ValueTask ShutdownSendAsync();

    /// <summary>Closes the connection and releases the underlying handle at once. Safe to call more than once.</summary>
    void Close();
}
