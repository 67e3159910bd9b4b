using System;
using System.Buffers;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Buffers;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// The sending side of the user's API over HTTP/2: the session's SendResponse methods and each request's handle answer
/// the stream of the current request (<see cref="Http2Dispatcher"/>). Our <see cref="HttpResponse"/> holds HTTP/1.1
/// bytes; its head becomes HEADERS (<see cref="Http2ResponseHead"/>) and its body DATA, cut at the Content-Length the
/// head declares; more declared body comes with SendResponseBody, and a streamed body as it is read. A response never
/// waits for the peer's window inside the call: what the window does not take waits on the stream, so the blocking
/// send methods return once it is queued. Sends come from any thread.
/// </summary>
internal sealed class Http2Answers : IHttpAnswerTarget
{
    private readonly Http2StreamTable _streams;
    private readonly Http2Output _output;
    private readonly Http2Dispatcher _dispatcher;
    private readonly IHttpServerSessionHost _session;

    public Http2Answers(Http2StreamTable streams, Http2Output output, Http2Dispatcher dispatcher, IHttpServerSessionHost session)
    {
        _session = session;
        _streams = streams;
        _output = output;
        _dispatcher = dispatcher;
    }

    public bool SendResponse(long number, HttpResponse response, bool blocking)
    {
        var store = response.Store;
        store.Split(out var head, out var body);
        if (store.BodyStart <= 0)
        {
            // No end of head written by the builder: the bytes are a head alone.
            head = body;
            body = default;
        }
        return Answer(number, head, body);
    }

    /// <summary>Prepared response bytes (cached static content, HTTP/1.1 head and body) to the current request.</summary>
    public bool SendPrepared(byte[] content)
    {
        var end = content.AsSpan().IndexOf("\r\n\r\n"u8);
        var split = end < 0 ? content.Length : end + 4;
        return Answer(0, content.AsSpan(0, split), content.AsSpan(split));
    }

    private bool Answer(long number, ReadOnlySpan<byte> head, ReadOnlySpan<byte> body)
    {
        bool finished;
        int status;
        (long StartedAt, string Method)? timed;
        lock (_streams.Sync)
        {
            var stream = _dispatcher.FindLocked(number);
            if (stream == null || stream.Answer != Http2Answer.Owed)
                return false;
            status = Http2ResponseHead.StatusOf(head);
            if (status is < 100 or 101)
                return false;
            timed = TimedLocked(stream, status);
            if (status < 200)
            {
                // An interim response: HEADERS without END_STREAM, the answer is still owed.
                _output.HeadersLocked(stream, head, endStream: false, out _);
                finished = false;
            }
            else
            {
                var declared = DeclaredLength(head);
                var noBody = stream.HeadOnly || status is 204 or 304;
                if (noBody)
                    body = default;
                else if (declared >= 0 && body.Length > declared)
                    body = body[..(int)declared];
                var left = noBody || declared < 0 ? 0 : declared - body.Length;
                finished = left == 0;
                _output.HeadersLocked(stream, head, endStream: finished && body.IsEmpty, out _);
                if (!body.IsEmpty)
                    _output.DataLocked(stream, body, finished);
                stream.BodyLeft = left;
                stream.Answer = finished ? Http2Answer.Done : Http2Answer.Writing;
            }
        }
        _output.Flush();
        Answered(timed, status);
        if (finished)
            _dispatcher.Answered();
        return true;
    }

    // The method of a request timed for http.server.request.duration whose final answer this is, read under the lock
    // (the request object goes back to the pool once its stream closes); null when there is nothing to record.
    private static (long StartedAt, string Method)? TimedLocked(Http2Stream stream, int status)
    {
        if (stream.StartedAt == 0 || status < 200)
            return null;
        var startedAt = stream.StartedAt;
        stream.StartedAt = 0;
        return (startedAt, stream.Request.Method);
    }

    /// <summary>Records the duration of the request whose final answer was just claimed, tagged HTTP/2.</summary>
    private void Answered((long StartedAt, string Method)? timed, int status)
    {
        if (timed is { } request)
            _session.Metrics?.RequestAnswered(request.StartedAt, request.Method, status, "2");
    }

    public bool SendBody(long number, ReadOnlySpan<byte> body, bool blocking)
    {
        if (body.IsEmpty)
            return true;
        bool finished;
        lock (_streams.Sync)
        {
            var stream = _dispatcher.FindLocked(number);
            if (stream == null || stream.Answer != Http2Answer.Writing || stream.BodyLeft == Http2Stream.Streaming || body.Length > stream.BodyLeft)
                return false;
            stream.BodyLeft -= body.Length;
            finished = stream.BodyLeft == 0;
            _output.DataLocked(stream, body, finished);
            if (finished)
                stream.Answer = Http2Answer.Done;
        }
        _output.Flush();
        if (finished)
            _dispatcher.Answered();
        return true;
    }

    public bool IsAnswered(long number)
    {
        lock (_streams.Sync)
            return _dispatcher.FindLocked(number) is not { Answer: Http2Answer.Owed or Http2Answer.Writing };
    }

    public Task<bool> SendStreamAsync(long number, HttpResponse response, Stream body, CancellationToken cancellationToken, long? bodyLength = null)
    {
        if (response.Store.BodyStart != 0)
            return Task.FromException<bool>(new InvalidOperationException("The response already has a body; set only its start line and headers (SetBegin, SetHeader) before streaming a body."));
        var length = bodyLength ?? (body.CanSeek ? body.Length - body.Position : null);
        var head = response.Cache.AsSpan();
        var framing = length is { } known ? $"Content-Length: {known}\r\n" : "";
        var headBytes = ArrayPool<byte>.Shared.Rent(head.Length + framing.Length);
        Http2Stream? stream;
        (long StartedAt, string Method)? timed;
        try
        {
            head.CopyTo(headBytes);
            var headLength = head.Length + System.Text.Encoding.ASCII.GetBytes(framing, headBytes.AsSpan(head.Length));
            lock (_streams.Sync)
            {
                stream = _dispatcher.FindLocked(number);
                if (stream == null || stream.Answer != Http2Answer.Owed)
                    return Task.FromResult(false);
                var empty = stream.HeadOnly || length == 0;
                timed = TimedLocked(stream, response.Status);
                stream.Answer = empty ? Http2Answer.Done : Http2Answer.Writing;
                stream.BodyLeft = Http2Stream.Streaming;
                _output.HeadersLocked(stream, headBytes.AsSpan(0, headLength), endStream: empty, out _);
                if (empty)
                    stream = null;
            }
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(headBytes);
        }
        _output.Flush();
        Answered(timed, response.Status);
        // Claimed: the next stream may go to the hooks while this body streams (an answer sent off the hooks' thread).
        _dispatcher.Answered();
        if (stream == null)
            return Task.FromResult(true);
        return StreamAsync(stream, body, length, cancellationToken);
    }

    private async Task<bool> StreamAsync(Http2Stream stream, Stream body, long? length, CancellationToken cancellationToken)
    {
        var buffer = EngineBuffers.Rent(Http2Limits.StreamedChunk);
        var complete = false;
        try
        {
            var left = length ?? long.MaxValue;
            while (left > 0)
            {
                var read = await body.ReadAsync(buffer.AsMemory(0, (int)Math.Min(Http2Limits.StreamedChunk, left)), cancellationToken).ConfigureAwait(false);
                if (read == 0)
                {
                    if (length != null)
                        return false;
                    break;
                }
                left -= read;
                TaskCompletionSource? drained = null;
                lock (_streams.Sync)
                {
                    if (stream.State is Http2StreamState.Closed || stream.Answer != Http2Answer.Writing)
                        return false;
                    _output.DataLocked(stream, buffer.AsSpan(0, read), endStream: left == 0);
                    if (_output.ProducerFullLocked(stream))
                        stream.Drained = drained = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                }
                _output.Flush();
                if (drained != null)
                    await drained.Task.WaitAsync(cancellationToken).ConfigureAwait(false);
            }
            lock (_streams.Sync)
            {
                // A known length ended the stream with its last bytes (which may have closed it).
                if (length == null)
                {
                    if (stream.Answer != Http2Answer.Writing)
                        return false;
                    _output.DataLocked(stream, default, endStream: true);
                }
                stream.Answer = Http2Answer.Done;
            }
            complete = true;
            return true;
        }
        finally
        {
            EngineBuffers.Return(buffer);
            if (!complete)
            {
                // A body cut short: the client learns it from the reset, the connection goes on.
                lock (_streams.Sync)
                {
                    if (stream.State != Http2StreamState.Closed)
                    {
                        _output.ResetLocked(stream.Id, Http2ErrorCode.InternalError);
                        _output.ForgetLocked(stream);
                        _streams.CloseLocked(stream);
                    }
                }
            }
            _output.Flush();
            _dispatcher.Answered();
        }
    }

    // The Content-Length a response head declares, or -1.
    private static long DeclaredLength(ReadOnlySpan<byte> head)
    {
        while (true)
        {
            var lineEnd = head.IndexOf("\r\n"u8);
            if (lineEnd < 0)
                return -1;
            head = head[(lineEnd + 2)..];
            var end = head.IndexOf("\r\n"u8);
            var line = end < 0 ? head : head[..end];
            var colon = line.IndexOf((byte)':');
            if (colon == 14 && HttpSyntax.EqualsIgnoreCase(line[..14], "content-length"u8))
                return HttpSyntax.TryParseDecimal(HttpSyntax.TrimWhitespace(line[15..]), out var length) ? length : -1;
        }
    }

    /// <summary>Answers with a part of a file too large to cache, read from the disk as it goes out; false when it cannot be opened.</summary>
    public bool SendFile(long number, StaticStream part)
    {
        var file = part.Open();
        if (file == null)
            return false;
        _ = SendFileAsync(number, part, file);
        return true;
    }

    private async Task SendFileAsync(long number, StaticStream part, FileStream file)
    {
        try
        {
            await SendStreamAsync(number, part.Head, file, CancellationToken.None, part.Length).ConfigureAwait(false);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or ObjectDisposedException)
        {
            // The file failed while read: the stream was reset.
        }
        finally
        {
            await file.DisposeAsync().ConfigureAwait(false);
        }
    }
}
