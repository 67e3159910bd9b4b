using System;
using System.Buffers;
using System.Threading.Tasks;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// One stream of an HTTP/2 server connection: its state, its two flow-control windows, the request arriving on it, the
/// answer owed on it, the response body that waits for the peer's window, and the request body bytes that wait for the
/// hooks. Read and written under the connection's lock (<see cref="Http2StreamTable.Sync"/>), except
/// <see cref="Request"/>, which the receive thread alone fills until the request goes to the dispatcher.
/// </summary>
internal sealed class Http2Stream
{
    // The response body bytes the peer's window did not take yet (pooled): [_pendingStart, _pendingEnd).
    private byte[]? _pending;
    private int _pendingStart;
    private int _pendingEnd;

    // Request body bytes that came after the request went to the dispatcher, waiting for the hooks (pooled).
    private byte[]? _arrived;
    private int _arrivedLength;

    /// <summary>Flow control of what the peer sends on this stream.</summary>
    public Http2FlowWindow ReceiveWindow;

    /// <summary>Flow control of what this side sends on this stream.</summary>
    public Http2FlowWindow SendWindow;

    public Http2Stream(int id, HttpRequest request, int sendWindow, int receiveWindow)
    {
        Id = id;
        Request = request;
        SendWindow = new Http2FlowWindow(sendWindow);
        ReceiveWindow = new Http2FlowWindow(receiveWindow);
    }

    public int Id { get; }

    /// <summary>The request: its head once the HEADERS block is decoded, its body as DATA arrives.</summary>
    public HttpRequest Request { get; }

    public Http2StreamState State { get; set; } = Http2StreamState.Idle;

    public Http2Answer Answer { get; set; } = Http2Answer.Arriving;

    /// <summary>The request's number on the connection, from 1 in the order handed to the hooks; 0 before.</summary>
    public long Number { get; set; }

    /// <summary>When the request went to the hooks, for http.server.request.duration (0: not timed).</summary>
    public long StartedAt { get; set; }

    /// <summary>A HEAD request: its response goes without a body.</summary>
    public bool HeadOnly { get; set; }

    /// <summary>Content-Length of the request, or -1: the DATA received must add up to it (RFC 9113 §8.1.1).</summary>
    public long DeclaredLength { get; set; } = -1;

    /// <summary>The body bytes received so far.</summary>
    public long BodyReceived { get; set; }

    /// <summary>Body bytes the response head declared and that are still to come (SendResponseBody), or <see cref="Streaming"/>.</summary>
    public long BodyLeft { get; set; }

    /// <summary>A streamed response body: the stream writes it, SendResponseBody may not.</summary>
    public const long Streaming = -2;

    /// <summary>Its hooks returned with its handle taken and no answer yet: the handle answers it, the hooks went on.</summary>
    public bool Detached { get; set; }

    /// <summary>The hooks returned: the request object may go back to the pool once the stream is closed.</summary>
    public bool HooksReturned { get; set; }

    /// <summary>END_STREAM goes out after the pending bytes.</summary>
    public bool EndAfterPending { get; set; }

    /// <summary>The response body bytes waiting for the peer's window.</summary>
    public int PendingLength => _pendingEnd - _pendingStart;

    public ReadOnlySpan<byte> Pending => _pending.AsSpan(_pendingStart, PendingLength);

    /// <summary>How the body reaches the hooks: undecided until the header hook returned.</summary>
    public Http2BodyMode BodyMode { get; set; }

    /// <summary>The body limit of a streamed body (<see cref="Http2BodyMode.Streamed"/>), from StreamRequestBody.</summary>
    public long StreamLimit { get; set; }

    /// <summary>END_STREAM arrived: the body is whole on the wire (checked against Content-Length).</summary>
    public bool BodyEnded { get; set; }

    /// <summary>The body passed its limit: the dispatcher answers 413 and resets the stream; later DATA is dropped.</summary>
    public bool TooLarge { get; set; }

    /// <summary>Reset either way while its hooks may be under way: what is left of them does not run.</summary>
    public bool WasReset { get; set; }

    /// <summary>Receive window bytes taken by DATA whose credit was not given back yet (bytes waiting for the hooks).</summary>
    public int HeldCredit { get; set; }

    /// <summary>Body bytes kept in <see cref="TakeArrived"/>'s buffer.</summary>
    public int ArrivedLength => _arrivedLength;

    /// <summary>A streamed body waits here while too much of it is pending; completed once the pending bytes drain.</summary>
    public TaskCompletionSource? Drained { get; set; }

    /// <summary>Keeps <paramref name="bytes"/> after what is pending (a copy, in a pooled buffer).</summary>
    public void AppendPending(ReadOnlySpan<byte> bytes)
    {
        if (bytes.IsEmpty)
            return;
        if (_pending == null || _pendingEnd + bytes.Length > _pending.Length)
        {
            var length = PendingLength;
            var grown = ArrayPool<byte>.Shared.Rent(Math.Max(length + bytes.Length, Math.Max(4096, 2 * (_pending?.Length ?? 0))));
            Pending.CopyTo(grown);
            if (_pending != null)
                ArrayPool<byte>.Shared.Return(_pending);
            _pending = grown;
            _pendingStart = 0;
            _pendingEnd = length;
        }
        bytes.CopyTo(_pending.AsSpan(_pendingEnd));
        _pendingEnd += bytes.Length;
    }

    /// <summary>The first <paramref name="count"/> pending bytes went out; the buffer goes back once empty.</summary>
    public void TakePending(int count)
    {
        if (_pending == null)
            return;
        _pendingStart += count;
        if (_pendingStart == _pendingEnd)
            DropPending();
    }

    /// <summary>Keeps request body bytes until the hooks take them (a copy, in a pooled buffer; at most a window of them).</summary>
    public void AppendArrived(ReadOnlySpan<byte> bytes)
    {
        if (bytes.IsEmpty)
            return;
        if (_arrived == null || _arrivedLength + bytes.Length > _arrived.Length)
        {
            var grown = ArrayPool<byte>.Shared.Rent(Math.Max(_arrivedLength + bytes.Length, Math.Max(16 * 1024, 2 * (_arrived?.Length ?? 0))));
            _arrived.AsSpan(0, _arrivedLength).CopyTo(grown);
            if (_arrived != null)
                ArrayPool<byte>.Shared.Return(_arrived);
            _arrived = grown;
        }
        bytes.CopyTo(_arrived.AsSpan(_arrivedLength));
        _arrivedLength += bytes.Length;
    }

    /// <summary>Hands over the arrived bytes: the caller owns the pooled buffer (its first <paramref name="length"/> bytes) and returns it.</summary>
    public byte[]? TakeArrived(out int length)
    {
        var arrived = _arrived;
        length = _arrivedLength;
        _arrived = null;
        _arrivedLength = 0;
        return arrived;
    }

    /// <summary>Forgets the arrived request body bytes (the stream closed).</summary>
    public void DropArrived()
    {
        var arrived = TakeArrived(out _);
        if (arrived != null)
            ArrayPool<byte>.Shared.Return(arrived);
    }

    /// <summary>Forgets the pending bytes (sent, or the stream was reset) and wakes a streamed body waiting on them.</summary>
    public void DropPending()
    {
        if (_pending != null)
            ArrayPool<byte>.Shared.Return(_pending);
        _pending = null;
        _pendingStart = 0;
        _pendingEnd = 0;
    }
}
