using System;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// The request side of an HTTP/2 server connection: HEADERS and CONTINUATION (a field block joined, bounded, decoded with
/// HPACK into the stream's <see cref="HttpRequest"/>), DATA (the body, the receive windows and the credit given back),
/// trailers, and the stream limits on the way in: concurrent streams (REFUSED_STREAM), the header list (431), the body
/// (past the limit the header hook chose: marked for the dispatcher's 413), malformed requests (RST_STREAM
/// PROTOCOL_ERROR). A request goes to the <see cref="Http2Dispatcher"/> when whole, or earlier with its body to come
/// (see there). Receive thread only; streams are changed under the connection's lock.
/// </summary>
internal sealed class Http2RequestReceiver
{
    private static readonly byte[] s_headersTooLarge = "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Length: 0\r\n\r\n"u8.ToArray();

    private readonly IHttpServerSessionHost _session;
    private readonly Http2StreamTable _streams;
    private readonly Http2Output _output;
    private readonly Http2Dispatcher _dispatcher;
    private readonly Http2FloodGuard _guard;
    private readonly Http2ServerConnection _connection;
    private readonly HpackDecoder _decoder;
    private readonly Http2FieldBlockBuffer _block;
    private readonly Http2RequestBuilder _builder = new();
    private Http2FlowWindow _window = new(Http2Limits.ConnectionWindow);

    // The field block being joined from CONTINUATION frames: its stream (null when refused), and what to do at its end.
    private Http2Stream? _blockStream;
    private bool _blockEndStream;
    private bool _blockTrailers;
    private Http2ErrorCode _blockRefusal;

    public Http2RequestReceiver(IHttpServerSessionHost session, Http2StreamTable streams, Http2Output output, Http2Dispatcher dispatcher, Http2FloodGuard guard, Http2ServerConnection connection)
    {
        _session = session;
        _streams = streams;
        _output = output;
        _dispatcher = dispatcher;
        _guard = guard;
        _connection = connection;
        var headLimit = session.Options.MaxHeadSize;
        _decoder = new HpackDecoder(maxHeaderListSize: headLimit);
        _block = new Http2FieldBlockBuffer(headLimit + Http2Limits.FieldBlockSlack);
    }

    /// <summary>The connection ended: a block being joined goes back to the pool.</summary>
    public void Stop() => _block.Reset();

    public void OnHeaders(in Http2Frame frame, Http2ErrorCode frameError)
    {
        var id = frame.StreamId;
        Http2Stream? stream;
        var trailers = false;
        var refusal = frameError;
        string? connectionError = null;
        var connectionCode = Http2ErrorCode.ProtocolError;
        lock (_streams.Sync)
        {
            stream = _streams.FindLocked(id);
            if (stream != null)
            {
                // A second HEADERS on a stream is its trailer section (§8.1).
                trailers = true;
                var next = Http2StreamTransitions.Received(stream.State, Http2FrameType.Headers, frame.EndStream, out var error, out _);
                if (error != Http2ErrorCode.NoError || stream.BodyEnded)
                    refusal = error == Http2ErrorCode.NoError ? Http2ErrorCode.StreamClosed : error;
                else
                    Move(stream, next);
            }
            else if (id <= _streams.HighestOpened)
            {
                (connectionError, connectionCode) = ("HEADERS on a closed stream", Http2ErrorCode.StreamClosed);
            }
            else if ((id & 1) == 0)
            {
                connectionError = "a client stream with an even identifier";
            }
            else if (refusal == Http2ErrorCode.NoError && (_streams.CountLocked >= _session.Options.Http2MaxConcurrentStreams || _connection.DrainingSince >= 0))
            {
                refusal = Http2ErrorCode.RefusedStream;
                _streams.SkipLocked(id);
            }
            else if (refusal != Http2ErrorCode.NoError)
            {
                _streams.SkipLocked(id);
            }
            else
            {
                stream = _streams.OpenLocked(id, _output.Peer.InitialWindowSize, Http2Limits.StreamWindow);
                if (frame.EndStream)
                    stream.State = Http2StreamState.HalfClosedRemote;
            }
        }
        if (connectionError != null)
        {
            _connection.Fail(connectionCode, connectionError);
            return;
        }
        _blockStream = refusal == Http2ErrorCode.NoError ? stream : null;
        _blockEndStream = frame.EndStream;
        _blockTrailers = trailers;
        _blockRefusal = refusal;
        if (frame.EndHeaders)
            EndBlock(id, frame.Payload);
        else if (!_block.TryStart(id, frame.Payload))
            _connection.Fail(Http2ErrorCode.EnhanceYourCalm, "a field block larger than the header list limit");
    }

    public void OnContinuation(in Http2Frame frame)
    {
        if (!_block.TryAppend(frame.Payload))
        {
            _connection.Fail(Http2ErrorCode.EnhanceYourCalm, "a field block larger than the header list limit");
            return;
        }
        if (!frame.EndHeaders)
            return;
        EndBlock(frame.StreamId, _block.Block);
        _block.Reset();
    }

    private void EndBlock(int id, ReadOnlySpan<byte> block)
    {
        _builder.Begin(_blockTrailers);
        var result = _decoder.Decode(block, _builder);
        if (result == HpackDecodeResult.CompressionError)
        {
            _connection.Fail(Http2ErrorCode.CompressionError, _decoder.ErrorReason ?? "");
            return;
        }
        var stream = _blockStream;
        _blockStream = null;
        if (stream == null)
        {
            _connection.Reset(id, _blockRefusal);
            return;
        }
        if (result == HpackDecodeResult.HeaderListTooLarge)
        {
            Refuse(stream, s_headersTooLarge);
            return;
        }
        if (_blockTrailers)
        {
            if (_builder.Error != null)
                _connection.Reset(id, Http2ErrorCode.ProtocolError);
            else
                EndRequest(stream);
            return;
        }
        if (!_builder.Build(stream.Request, out var headOnly))
        {
            _connection.Reset(id, Http2ErrorCode.ProtocolError);
            return;
        }
        stream.HeadOnly = headOnly;
        stream.DeclaredLength = _builder.ContentLength;
        // A Content-Length over MaxBodySize is the header hook's to judge: it may stream the body past it.
        if (_blockEndStream)
            EndRequest(stream);
        else
            _dispatcher.EnqueueIfIdle(stream);
    }

    public void OnData(in Http2Frame frame)
    {
        if (!_window.TryConsume(frame.Length))
        {
            _connection.Fail(Http2ErrorCode.FlowControlError, "DATA past the connection window");
            return;
        }
        // The connection's credit goes back at once: each stream's own window bounds what waits there for the hooks, and
        // a stream held by a slow consumer must not close the connection's window to the others (docs/design/http2.md).
        var credit = _window.Release(frame.Length, Http2Limits.ConnectionWindow);
        if (frame.Payload.IsEmpty && !frame.EndStream && !_guard.EmptyData())
        {
            _connection.Fail(Http2ErrorCode.EnhanceYourCalm, "too many empty DATA frames");
            return;
        }
        Http2Stream? stream;
        Http2ErrorCode error;
        bool connectionError;
        var next = DataNext.Nothing;
        lock (_streams.Sync)
        {
            if (credit > 0)
                _output.WindowUpdateLocked(0, credit);
            stream = _streams.FindLocked(frame.StreamId);
            if (stream == null)
            {
                error = frame.StreamId > _streams.HighestOpened ? Http2ErrorCode.ProtocolError : Http2ErrorCode.NoError;
                connectionError = true;
            }
            else
            {
                var state = Http2StreamTransitions.Received(stream.State, Http2FrameType.Data, frame.EndStream, out error, out connectionError);
                if (error == Http2ErrorCode.NoError)
                {
                    Move(stream, state);
                    next = stream.ReceiveWindow.TryConsume(frame.Length) ? TakeLocked(stream, frame) : DataNext.FlowError;
                }
            }
        }
        if (stream == null)
        {
            // A closed stream's DATA still in flight after a reset is counted above and dropped (§5.1).
            if (error != Http2ErrorCode.NoError)
                _connection.Fail(error, "DATA on an idle stream");
            return;
        }
        if (error != Http2ErrorCode.NoError)
        {
            if (connectionError)
                _connection.Fail(error, "DATA in a state that does not allow it");
            else
                _connection.Reset(stream.Id, error);
            return;
        }
        switch (next)
        {
            case DataNext.FlowError:
                _connection.Reset(stream.Id, Http2ErrorCode.FlowControlError);
                return;
            case DataNext.Malformed:
                _connection.Reset(stream.Id, Http2ErrorCode.ProtocolError);
                return;
            case DataNext.Ended:
                EndRequest(stream);
                return;
            case DataNext.Enqueue:
                _output.Flush();
                _dispatcher.Enqueue(stream);
                return;
            case DataNext.Continue:
                _output.Flush();
                _dispatcher.Continue();
                return;
        }
    }

    private enum DataNext
    {
        Nothing,
        FlowError,
        Malformed,
        Ended,
        Enqueue,
        Continue,
    }

    /// <summary>
    /// Keeps a DATA frame's bytes where the body goes (<see cref="Http2BodyMode"/>): in the request while it waits for the
    /// hooks or is kept whole, in the stream for a streamed body's hook; the stream's credit is held until the header hook
    /// chose, and for a streamed body until the body hook took the bytes.
    /// </summary>
    private DataNext TakeLocked(Http2Stream stream, in Http2Frame frame)
    {
        if (stream.TooLarge || stream.WasReset)
        {
            _output.CreditLocked(stream, frame.Length);
            return DataNext.Nothing;
        }
        var payload = frame.Payload;
        stream.BodyReceived += payload.Length;
        if (stream.DeclaredLength >= 0 && stream.BodyReceived > stream.DeclaredLength)
            return DataNext.Malformed;
        switch (stream.BodyMode)
        {
            case Http2BodyMode.Whole:
                if (stream.BodyReceived > _session.Options.MaxBodySize)
                {
                    stream.TooLarge = true;
                    return DataNext.Continue;
                }
                stream.Request.Store.AppendBody(payload);
                _output.CreditLocked(stream, frame.Length);
                break;
            case Http2BodyMode.Streamed:
                if (stream.BodyReceived > stream.StreamLimit)
                {
                    stream.TooLarge = true;
                    return DataNext.Continue;
                }
                stream.AppendArrived(payload);
                stream.HeldCredit += payload.Length;
                _output.CreditLocked(stream, frame.Length - payload.Length);
                break;
            default:
                // Before the dispatcher has it the request is the receive thread's; after, the hooks may be reading it.
                if (stream.Answer == Http2Answer.Arriving)
                    stream.Request.Store.AppendBody(payload);
                else
                    stream.AppendArrived(payload);
                stream.HeldCredit += frame.Length;
                break;
        }
        if (frame.EndStream)
            return DataNext.Ended;
        if (stream.Answer != Http2Answer.Arriving)
            return DataNext.Continue;
        // Waiting for the hooks: it goes to them once it can go no further without the header hook's choice.
        return stream.BodyReceived > _session.Options.MaxBodySize || stream.HeldCredit >= Http2Limits.StreamWindow / 2 ? DataNext.Enqueue : DataNext.Nothing;
    }

    // A state change received; a stream whose both sides ended leaves the table.
    private void Move(Http2Stream stream, Http2StreamState next)
    {
        if (next == Http2StreamState.Closed)
            _streams.CloseLocked(stream);
        else
            stream.State = next;
    }

    /// <summary>The request on <paramref name="stream"/> is whole: checked against its Content-Length, then to the hooks.</summary>
    private void EndRequest(Http2Stream stream)
    {
        if (stream.DeclaredLength >= 0 && stream.DeclaredLength != stream.BodyReceived)
        {
            _connection.Reset(stream.Id, Http2ErrorCode.ProtocolError);
            return;
        }
        bool waiting;
        lock (_streams.Sync)
        {
            stream.BodyEnded = true;
            stream.Request.Store.BodyLength = stream.BodyReceived;
            waiting = stream.Answer == Http2Answer.Arriving;
        }
        _output.Flush();
        if (waiting)
            _dispatcher.Enqueue(stream);
        else
            _dispatcher.Continue();
    }

    /// <summary>Answers a request that cannot be taken (431) before it is whole, then asks the client to stop sending it (§8.1).</summary>
    private void Refuse(Http2Stream stream, byte[] response)
    {
        lock (_streams.Sync)
        {
            stream.Answer = Http2Answer.Done;
            _output.HeadersLocked(stream, response, endStream: true, out _);
            if (stream.State != Http2StreamState.Closed)
            {
                _output.ResetLocked(stream.Id, Http2ErrorCode.NoError);
                _streams.CloseLocked(stream);
            }
        }
    }
}
