using System;
using System.Net;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Protocols;

/// <summary>
/// What a protocol's client-side component (the HTTP request exchange) sees of the client it runs on: it connects it
/// when needed and aborts it when an answer is overdue. <see cref="StreamClient"/> implements it.
/// </summary>
internal interface IProtocolClient
{
    /// <summary>True while data can be sent and received.</summary>
    bool IsConnected { get; }

    /// <summary>The clock of the client's timeouts (a request's timeout among them).</summary>
    TimeProvider OptionTimeProvider { get; }

    /// <summary>The server the client connects to.</summary>
    EndPoint Endpoint { get; }

    /// <summary>Connects and completes with the outcome: true once connected (and, for TLS, handshaked).</summary>
    Task<bool> ConnectAndWaitAsync(CancellationToken cancellationToken);

    /// <summary>Closes the connection at once, without draining what is queued.</summary>
    void Abort(DisconnectReason reason);
}
