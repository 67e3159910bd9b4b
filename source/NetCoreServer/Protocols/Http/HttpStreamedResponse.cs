using System;
using System.IO;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Buffers;
using NetCoreServer.Engine;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// A response whose body is read from a stream as it goes out, never whole in memory (Content-Length when the stream
/// knows its length, chunked otherwise). Made on a connection's first streamed response. Nothing else is sent on the
/// connection meanwhile: the protocol reads the next request only once this response ended (<see cref="HttpOwedAnswer"/>).
/// </summary>
internal sealed class HttpStreamedResponse
{
    /// <summary>The most bytes a streamed body keeps queued before it waits for the socket: the backpressure on a producer.</summary>
    internal const long StreamHighWater = 1024 * 1024;

    private const int StreamChunkSize = 64 * 1024;

    private static readonly byte[] s_crlf = "\r\n"u8.ToArray();
    private static readonly byte[] s_lastChunk = "0\r\n\r\n"u8.ToArray();

    private readonly IHttpServerSessionHost _session;
    private readonly HttpOutbox _outbox;

    public HttpStreamedResponse(IHttpServerSessionHost session, HttpOutbox outbox)
    {
        _session = session;
        _outbox = outbox;
    }

    /// <summary>
    /// Queues the head of <paramref name="response"/>, then the body read from <paramref name="body"/>, reading only while
    /// less than <see cref="StreamHighWater"/> waits in the send queue. True when the whole response is queued; false
    /// when it was cut short (read error, disconnect, a stream ending before its length), and the caller must close.
    /// <paramref name="bodyLength"/> sends that many bytes of the stream (else: the rest of a seekable stream, or
    /// chunked until its end).
    /// </summary>
    public async Task<bool> SendAsync(HttpResponse response, bool headOnly, Stream body, CancellationToken cancellationToken, long? bodyLength = null)
    {
        var length = bodyLength ?? (body.CanSeek ? body.Length - body.Position : null);
        var framing = length is { } known ? $"Content-Length: {known}\r\n\r\n" : "Transfer-Encoding: chunked\r\n\r\n";
        if (!_outbox.Send(response.Cache.AsSpan(), Encoding.ASCII.GetBytes(framing), blocking: false, closeAfter: false))
            return false;
        if (headOnly)
            return true;
        var buffer = EngineBuffers.Rent(StreamChunkSize);
        try
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
            return length != null || _outbox.Send(s_lastChunk, default, blocking: false, closeAfter: false);
        }
        finally
        {
            EngineBuffers.Return(buffer);
        }
    }
}
