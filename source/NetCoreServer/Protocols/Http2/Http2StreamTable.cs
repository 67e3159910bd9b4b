using System.Collections.Generic;

namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// The open streams of one HTTP/2 server connection, by identifier, and the connection's lock: every component of the
/// connection (output, dispatcher, answers) works on streams under <see cref="Sync"/>, and none calls user code or the
/// engine while holding it. Request objects of closed streams are kept for reuse (a few), once their hooks returned.
/// </summary>
internal sealed class Http2StreamTable
{
    private const int KeptRequests = 8;

    private readonly Dictionary<int, Http2Stream> _streams = new();
    private readonly Stack<HttpRequest> _free = new();

    /// <summary>The connection's lock.</summary>
    public object Sync { get; } = new();

    /// <summary>The largest stream identifier the client opened (every lower one is closed or open).</summary>
    public int HighestOpened { get; private set; }

    /// <summary>Streams open or half-closed: what SETTINGS_MAX_CONCURRENT_STREAMS counts.</summary>
    public int CountLocked => _streams.Count;

    public Http2Stream? FindLocked(int id) => _streams.GetValueOrDefault(id);

    public Dictionary<int, Http2Stream>.ValueCollection AllLocked => _streams.Values;

    /// <summary>Opens client stream <paramref name="id"/> (above <see cref="HighestOpened"/>, odd).</summary>
    public Http2Stream OpenLocked(int id, int sendWindow, int receiveWindow)
    {
        var request = _free.Count > 0 ? _free.Pop() : new HttpRequest();
        request.Clear();
        var stream = new Http2Stream(id, request, sendWindow, receiveWindow) { State = Http2StreamState.Open };
        _streams.Add(id, stream);
        HighestOpened = id;
        return stream;
    }

    /// <summary>A stream identifier was used without opening a stream (a refused stream): lower ones are closed from now.</summary>
    public void SkipLocked(int id)
    {
        if (id > HighestOpened)
            HighestOpened = id;
    }

    /// <summary>The stream closed (both sides ended, or a reset): it leaves the table, its pending bytes are dropped.</summary>
    public void CloseLocked(Http2Stream stream)
    {
        if (stream.State == Http2StreamState.Closed)
            return;
        stream.State = Http2StreamState.Closed;
        stream.DropPending();
        stream.DropArrived();
        stream.Drained?.TrySetResult();
        stream.Answer = Http2Answer.Done;
        _streams.Remove(stream.Id);
        ReleaseRequestLocked(stream);
    }

    /// <summary>Keeps a closed stream's request for reuse once nobody reads it: the hooks returned, or they never ran.</summary>
    public void ReleaseRequestLocked(Http2Stream stream)
    {
        if (stream.State != Http2StreamState.Closed || (stream.Number != 0 && !stream.HooksReturned) || _free.Count >= KeptRequests)
            return;
        if (!_free.Contains(stream.Request))
            _free.Push(stream.Request);
    }

    /// <summary>The connection ended: every stream is dropped.</summary>
    public void ClearLocked()
    {
        foreach (var stream in _streams.Values)
        {
            stream.State = Http2StreamState.Closed;
            stream.Answer = Http2Answer.Done;
            stream.DropPending();
            stream.DropArrived();
            stream.Drained?.TrySetResult();
        }
        _streams.Clear();
        _free.Clear();
    }
}
