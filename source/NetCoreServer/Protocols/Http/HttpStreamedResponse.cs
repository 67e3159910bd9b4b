using System;
using System.Buffers;
using System.Collections.Generic;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// A response whose body is read from a stream as it goes out, never whole in memory (Content-Length when the stream
/// knows its length, chunked otherwise), and the responses to later requests that wait behind it so that nothing is
/// sent in its middle. Made on a connection's first streamed response. Lock: its own, guarding only the waiting list;
/// nothing is sent or raised under it.
/// </summary>
internal sealed class HttpStreamedResponse
{
    /// <summary>The most bytes a streamed body keeps queued before it waits for the socket: the backpressure on a producer.</summary>
    internal const long StreamHighWater = 1024 * 1024;

    private const int StreamChunkSize = 64 * 1024;

    /// <summary>The most bytes of later responses kept while a body streams (pipelined requests answered meanwhile).</summary>
    private const long MaxDeferredBytes = 16 * 1024 * 1024;

    private static readonly byte[] s_crlf = "\r\n"u8.ToArray();
    private static readonly byte[] s_lastChunk = "0\r\n\r\n"u8.ToArray();

    private readonly IHttpServerSessionHost _session;
    private readonly HttpOutbox _outbox;
    private readonly object _lock = new();

    // While a body streams, later responses wait here, in order; an empty entry marks one after which to close.
    private List<byte[]>? _deferred;
    private long _deferredBytes;

    public HttpStreamedResponse(IHttpServerSessionHost session, HttpOutbox outbox)
    {
        _session = session;
        _outbox = outbox;
    }

    /// <summary>True while a body streams (later responses wait behind it).</summary>
    public bool IsStreaming
    {
        get
        {
            lock (_lock)
                return _deferred != null;
        }
    }

    /// <summary>
    /// Sends the head of <paramref name="response"/>, then the body read from <paramref name="body"/>, reading only while
    /// less than <see cref="StreamHighWater"/> waits in the send queue; then what waited behind it. A body cut short
    /// (read error, cancellation, disconnect, a stream ending before its length) closes the connection, as does
    /// <paramref name="closeAfter"/>. <paramref name="bodyLength"/> sends that many bytes of the stream (else: the rest
    /// of a seekable stream, or chunked until its end).
    /// </summary>
    public async Task<bool> SendAsync(HttpResponse response, bool headOnly, bool closeAfter, Stream body, CancellationToken cancellationToken, long? bodyLength = null)
    {
        var length = bodyLength ?? (body.CanSeek ? body.Length - body.Position : null);
        var framing = length is { } known ? $"Content-Length: {known}\r\n\r\n" : "Transfer-Encoding: chunked\r\n\r\n";
        lock (_lock)
            _deferred ??= new List<byte[]>();
        var buffer = ArrayPool<byte>.Shared.Rent(StreamChunkSize);
        var complete = false;
        try
        {
            if (!_outbox.Send(response.Cache.AsSpan(), Encoding.ASCII.GetBytes(framing), blocking: false, closeAfter: false))
                return false;
            if (!headOnly)
            {
                var left = length ?? long.MaxValue;
                while (left > 0)
                {
                    var read = await body.ReadAsync(buffer.AsMemory(0, (int)Math.Min(StreamChunkSize, left)), cancellationToken).ConfigureAwait(false);
                    if (read == 0)
                    {
                        if (length != null)
                            return false;
                        break;
                    }
                    left -= read;
                    var sent = length == null
                        ? _outbox.Send(Encoding.ASCII.GetBytes(read.ToString("x") + "\r\n"), buffer.AsSpan(0, read), blocking: false, closeAfter: false) && _outbox.Send(s_crlf, default, blocking: false, closeAfter: false)
                        : _outbox.Send(buffer.AsSpan(0, read), default, blocking: false, closeAfter: false);
                    if (!sent)
                        return false;
                    if (_session.BytesPending + _outbox.Bytes > StreamHighWater && !await _session.FlushAsync(cancellationToken).ConfigureAwait(false))
                        return false;
                }
                if (length == null && !_outbox.Send(s_lastChunk, default, blocking: false, closeAfter: false))
                    return false;
            }
            complete = true;
            return true;
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(buffer);
            // A body cut short leaves the client waiting for bytes that will not come: only closing tells it.
            End(closeAfter || !complete);
        }
    }

    /// <summary>Keeps a response for after the streamed body under way; false when nothing is streaming.</summary>
    public bool TryDefer(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, bool close)
    {
        lock (_lock)
        {
            if (_deferred == null)
                return false;
            if (_deferredBytes + head.Length + body.Length > MaxDeferredBytes)
            {
                // A client pipelining past the bound while a body streams: the stream finishes, then the connection closes.
                _deferred.Add(Array.Empty<byte>());
                return true;
            }
            var bytes = new byte[head.Length + body.Length];
            head.CopyTo(bytes);
            body.CopyTo(bytes.AsSpan(head.Length));
            _deferred.Add(bytes);
            if (close)
                _deferred.Add(Array.Empty<byte>());
            _deferredBytes += bytes.Length;
            return true;
        }
    }

    /// <summary>Sends what waited behind the stream, in order; an empty entry marks a response after which to close.</summary>
    private void End(bool closeAfter)
    {
        List<byte[]> waiting;
        lock (_lock)
        {
            waiting = _deferred ?? new List<byte[]>();
            _deferred = null;
            _deferredBytes = 0;
        }
        if (closeAfter)
        {
            _session.Disconnect();
            return;
        }
        foreach (var bytes in waiting)
        {
            if (bytes.Length == 0)
            {
                _session.Disconnect();
                return;
            }
            _outbox.Send(bytes, default, blocking: false, closeAfter: false);
        }
    }
}
