using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Security;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Security.Authentication;
using System.Security.Cryptography.X509Certificates;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Buffers;

namespace NetCoreServer.Transports.Tls;

/// <summary>
/// TLS over any plain transport (socket or event loop): SslStream on a <see cref="TransportStream"/> of the inner one.
/// The engine runs the handshake once (<see cref="HandshakeAsync"/>) and starts no read or write before it succeeded.
/// Errors are mapped to SocketError values so the engine treats a broken TLS stream like a broken socket.
/// </summary>
internal sealed class TlsTransport : IStreamTransport, ITlsInfo
{
    private readonly IStreamTransport _inner;
    private readonly SslStream _ssl;
    private readonly Func<SslStream, Action, CancellationToken, Task> _authenticate;
    private readonly TimeSpan _handshakeTimeout;
    private readonly TimeProvider _time;
    private Action? _handshakeEnded;
    private volatile bool _handshaked;
    private volatile bool _rejected;
    private int _closed;
    // 1 while the handshake runs; the stream is disposed once (_sslDisposed) and never under a running handshake.
    private int _handshaking;
    private int _sslDisposed;
    // Made by the first receive that does not complete at once.
    private ReceiveRelay? _relay;

    /// <param name="inner">The plain transport TLS runs over; this transport owns it from now on.</param>
    /// <param name="authenticate">Runs the handshake; it calls its action when this side rejects the peer's certificate.</param>
    /// <param name="handshakeTimeout">How long the handshake may take.</param>
    /// <param name="handshakeEnded">Runs once when the handshake ended or can no longer run (the transport closed first).</param>
    /// <param name="time">The clock of the handshake timeout; null for the system clock.</param>
    public TlsTransport(IStreamTransport inner, Func<SslStream, Action, CancellationToken, Task> authenticate, TimeSpan handshakeTimeout, Action? handshakeEnded = null,
        TimeProvider? time = null)
    {
        _inner = inner;
        _time = time ?? TimeProvider.System;
        _ssl = new SslStream(new TransportStream(inner), leaveInnerStreamOpen: false);
        _authenticate = authenticate;
        _handshakeTimeout = handshakeTimeout;
        _handshakeEnded = handshakeEnded;
    }

    public Socket? Socket => _inner.Socket;

    public ITlsInfo Tls => this;

    /// <summary>The endpoint a server admitted the connection from (see IStreamTransport), kept by the inner transport.</summary>
    public System.Net.EndPoint? AdmittedEndPoint
    {
        get => _inner.AdmittedEndPoint;
        set => _inner.AdmittedEndPoint = value;
    }

    public bool IsHandshaked => _handshaked;

    public Exception? HandshakeException { get; private set; }

    public SslProtocols Protocol => _handshaked ? _ssl.SslProtocol : SslProtocols.None;

    public TlsCipherSuite CipherSuite => _handshaked ? _ssl.NegotiatedCipherSuite : default;

    public SslApplicationProtocol ApplicationProtocol => _handshaked ? _ssl.NegotiatedApplicationProtocol : default;

    public X509Certificate? RemoteCertificate => _handshaked ? _ssl.RemoteCertificate : null;

    public async ValueTask<SocketError> HandshakeAsync()
    {
        using var timeout = _handshakeTimeout > TimeSpan.Zero && _handshakeTimeout != Timeout.InfiniteTimeSpan
            ? new CancellationTokenSource(_handshakeTimeout, _time)
            : new CancellationTokenSource();
        Interlocked.Exchange(ref _handshaking, 1);
        try
        {
            // Closed before it started: Close may have disposed the stream already (see EndHandshakeRun).
            if (Volatile.Read(ref _closed) != 0)
                throw new ObjectDisposedException(nameof(TlsTransport));
            await _authenticate(_ssl, () => _rejected = true, timeout.Token).ConfigureAwait(false);
            _handshaked = true;
            return SocketError.Success;
        }
        catch (OperationCanceledException exception)
        {
            HandshakeException = new TimeoutException($"TLS handshake did not complete within {_handshakeTimeout.TotalSeconds:0.###} s", exception);
            return SocketError.TimedOut;
        }
        catch (AuthenticationException exception)
        {
            HandshakeException = exception;
            // The platform throws this type both for a certificate this side refused and for a peer that does not speak
            // TLS (garbage, a malformed record, no common version or cipher, an alert): only the former is access denied.
            return _rejected ? SocketError.AccessDenied : SocketError.ProtocolNotSupported;
        }
        catch (Exception exception) when (exception is IOException or ObjectDisposedException or SocketException or InvalidOperationException)
        {
            HandshakeException = exception;
            return Volatile.Read(ref _closed) != 0 ? SocketError.OperationAborted : SocketError.ConnectionAborted;
        }
        catch (Exception exception)
        {
            // This side cannot take part: no server certificate to present (NotSupportedException from the platform),
            // or the user's certificate selector threw. The session fails its handshake instead of hanging open.
            HandshakeException = exception;
            return SocketError.Fault;
        }
        finally
        {
            EndHandshakeRun();
            EndHandshake();
        }
    }

    private void EndHandshake() => Interlocked.Exchange(ref _handshakeEnded, null)?.Invoke();

    // Disposing an SslStream while its handshake runs on another thread crashed the process inside OpenSSL
    // (SSL_do_handshake, .NET 10.0.12: seen in a run of ThousandConnectDisconnectCycles over ssl; dotnet/runtime#124602
    // is the same race). So Close leaves a running handshake's stream alone (the inner close makes the handshake fail at
    // once) and the handshake disposes it as it ends. Both sides write with a full fence, then read the other's flag, so
    // at least one of them sees the other and disposes; DisposeSsl runs once.
    private void EndHandshakeRun()
    {
        Interlocked.Exchange(ref _handshaking, 0);
        if (Volatile.Read(ref _closed) != 0)
            DisposeSsl();
    }

    private void DisposeSsl()
    {
        if (Interlocked.Exchange(ref _sslDisposed, 1) != 0)
            return;
        try
        {
            _ssl.Dispose();
        }
        catch (Exception)
        {
            // Disposing a stream whose socket is already gone may throw from the TLS layer; the handle is released anyway.
        }
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<IoResult> ReceiveAsync(Memory<byte> buffer)
    {
        try
        {
            var n = await _ssl.ReadAsync(buffer).ConfigureAwait(false);
            return new IoResult(n, SocketError.Success);
        }
        catch (Exception exception)
        {
            return IoResult.Failed(Classify(exception));
        }
    }

    public bool TryReceive(Memory<byte> buffer, IReceiveCompletion completion, out IoResult result)
        => ReceiveRelay.Relay(ref _relay, ReceiveAsync(buffer), completion, out result);

    // The largest TLS record's payload (RFC 8446 5.1): a segment this large fills records by itself.
    private const int RecordBytes = 16 * 1024;

    // What a send batch's small segments are coalesced into before a write: four records.
    private const int StagingBytes = 4 * RecordBytes;

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    public async ValueTask<IoResult> SendAsync(IReadOnlyList<ArraySegment<byte>> batch)
    {
        try
        {
            if (batch.Count == 1)
            {
                await _ssl.WriteAsync(batch[0].AsMemory()).ConfigureAwait(false);
                return new IoResult(batch[0].Count, SocketError.Success);
            }
            // Many small segments would become many TLS records: small ones are coalesced into a staging buffer of at
            // most StagingBytes (a few records), written each time it fills; a segment of a full record or more is
            // written as it is. The staging buffer stays small because every TLS session sending at once holds one, and
            // it is rented only when a small segment needs it.
            var total = 0;
            foreach (var segment in batch)
                total += segment.Count;
            byte[]? staging = null;
            try
            {
                var filled = 0;
                foreach (var segment in batch)
                {
                    var direct = segment.Count >= RecordBytes;
                    if (filled > 0 && (direct || segment.Count > staging!.Length - filled))
                    {
                        await _ssl.WriteAsync(staging.AsMemory(0, filled)).ConfigureAwait(false);
                        filled = 0;
                    }
                    if (direct)
                    {
                        await _ssl.WriteAsync(segment.AsMemory()).ConfigureAwait(false);
                        continue;
                    }
                    staging ??= EngineBuffers.Rent(Math.Min(total, StagingBytes));
                    segment.AsSpan().CopyTo(staging.AsSpan(filled));
                    filled += segment.Count;
                }
                if (filled > 0)
                    await _ssl.WriteAsync(staging.AsMemory(0, filled)).ConfigureAwait(false);
            }
            finally
            {
                if (staging != null)
                    EngineBuffers.Return(staging);
            }
            return new IoResult(total, SocketError.Success);
        }
        catch (Exception exception)
        {
            return IoResult.Failed(Classify(exception));
        }
    }

    public IoResult Send(ReadOnlySpan<byte> data)
    {
        try
        {
            _ssl.Write(data);
            return new IoResult(data.Length, SocketError.Success);
        }
        catch (Exception exception)
        {
            return IoResult.Failed(Classify(exception));
        }
    }

    public IoResult Receive(Span<byte> buffer)
    {
        try
        {
            return new IoResult(_ssl.Read(buffer), SocketError.Success);
        }
        catch (Exception exception)
        {
            return IoResult.Failed(Classify(exception));
        }
    }

    public async ValueTask ShutdownSendAsync()
    {
        if (Volatile.Read(ref _closed) != 0)
            return;
        try
        {
            // close_notify first, so the peer can tell a clean end from a truncation; then FIN. A peer that does not
            // read can hold the alert up: the engine's disconnect timeout closes the socket then.
            if (_handshaked)
                await _ssl.ShutdownAsync().ConfigureAwait(false);
        }
        catch (Exception)
        {
            // The peer is gone, or TLS refused the alert (OpenSSL: "shutdown while in init" when a post-handshake
            // message is in flight). Either way the FIN or the close that follows ends the stream; nothing to report.
        }
        await _inner.ShutdownSendAsync().ConfigureAwait(false);
    }

    public void Close()
    {
        if (Interlocked.Exchange(ref _closed, 1) != 0)
            return;
        // A handshake that never started (or is being aborted now) gives its slot back with the connection.
        EndHandshake();
        // Closing the inner transport first completes pending reads and writes at once; then the stream releases its
        // buffers, unless a handshake runs (EndHandshakeRun disposes it then).
        _inner.Close();
        if (Volatile.Read(ref _handshaking) == 0)
            DisposeSsl();
    }

    public void Dispose() => _inner.Dispose();

    private SocketError Classify(Exception exception)
    {
        if (Volatile.Read(ref _closed) != 0 || exception is ObjectDisposedException or OperationCanceledException)
            return SocketError.OperationAborted;
        for (var inner = exception; inner != null; inner = inner.InnerException)
        {
            if (inner is SocketException socket)
                return socket.SocketErrorCode;
        }
        // A TLS protocol error (bad record, missing close_notify mid-record) ends the stream like a reset.
        return SocketError.ConnectionReset;
    }
}
