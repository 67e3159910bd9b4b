using System;
using System.Collections.Generic;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Http2;
using NetCoreServer.Tests.Support;

namespace NetCoreServer.Tests.Http2;

/// <summary>One frame the server sent, copied out of the read buffer.</summary>
internal sealed record Http2ReceivedFrame(Http2FrameType Type, byte Flags, int StreamId, byte[] Payload, Http2ErrorCode ErrorCode, int Increment, int LastStreamId)
{
    public bool EndStream => (Flags & Http2FrameFlags.EndStream) != 0;

    public bool Ack => (Flags & Http2FrameFlags.Ack) != 0;

    public override string ToString() => $"{Type} stream {StreamId} flags {Flags:x2} length {Payload.Length} {ErrorCode}";
}

/// <summary>A response read off one stream: status, fields ("name: value") and body.</summary>
internal sealed record Http2RawResponse(int Status, List<string> Fields, byte[] Body)
{
    public string Text => Encoding.UTF8.GetString(Body);

    public string? Field(string name) => Fields.FirstOrDefault(f => f.StartsWith(name + ": ", StringComparison.Ordinal))?[(name.Length + 2)..];
}

/// <summary>
/// An HTTP/2 client made of the codec (frame writer, HPACK encoder; frame reader, HPACK decoder) over a bare socket: it
/// sends exactly the frames a test writes, valid or not, and reads what the server answers.
/// </summary>
internal sealed class Http2RawClient : IDisposable
{
    private readonly Socket _socket;
    private readonly Http2FrameReader _reader = new(expectPreface: false);
    private readonly HpackEncoder _encoder = new();
    private readonly HpackDecoder _decoder = new();
    // Holds one frame and what follows it: the largest a test makes the server send is about 100 KB.
    private readonly byte[] _buffer = new byte[256 * 1024];
    private readonly List<byte> _block = [];
    private int _start;
    private int _end;

    // The client takes any frame size: a test that raises SETTINGS_MAX_FRAME_SIZE checks the server's frames itself.
    private Http2RawClient(Socket socket)
    {
        _socket = socket;
        _reader.MaxFrameSize = Http2Settings.MaxMaxFrameSize;
    }

    /// <summary>The server's SETTINGS, read by the handshake.</summary>
    public Http2Settings ServerSettings { get; } = new();

    /// <summary>Connects, sends the preface and empty SETTINGS; with <paramref name="handshake"/>, reads the server's SETTINGS and acknowledges them.</summary>
    public static async Task<Http2RawClient> ConnectAsync(EndPoint endpoint, bool handshake = true)
    {
        var peer = await RawPeer.ConnectAsync(endpoint);
        var client = new Http2RawClient(peer.Socket);
        await client.SendRaw([.. Http2Preface.Client.ToArray(), .. Frame(b => Http2FrameWriter.WriteSettings(b, []))]);
        if (handshake)
        {
            var settings = await client.ReadFrame();
            if (settings.Type != Http2FrameType.Settings || settings.Ack)
                throw new InvalidOperationException("the server's first frame is not SETTINGS: " + settings);
            client.ServerSettings.Apply(settings.Payload);
            await client.Send(b => Http2FrameWriter.WriteSettingsAck(b));
        }
        return client;
    }

    // Where frames are written before they are copied out at their size: one per thread, so that a flood of ten
    // thousand frames does not make ten thousand large-object arrays (which would swell the process for the tests
    // that measure it).
    [ThreadStatic]
    private static byte[]? t_scratch;

    /// <summary>The bytes a frame writer call produces (up to 128 KiB).</summary>
    public static byte[] Frame(Func<byte[], int> write)
    {
        var scratch = t_scratch ??= new byte[1 << 17];
        return scratch.AsSpan(0, write(scratch)).ToArray();
    }

    public Task SendRaw(byte[] bytes) => _socket.SendAsync(bytes, SocketFlags.None);

    public Task Send(Func<byte[], int> write) => SendRaw(Frame(write));

    /// <summary>A header block of these fields from this connection's encoder.</summary>
    public byte[] Block(params (string Name, string Value)[] fields) => HpackTesting.Encode(_encoder, fields);

    /// <summary>A GET (or other body-less request) on <paramref name="stream"/>, one HEADERS frame with END_STREAM.</summary>
    public Task Get(int stream, string path, string method = "GET", params (string Name, string Value)[] extra)
        => SendHeaders(stream, endStream: true, [(":method", method), (":scheme", "http"), (":authority", "localhost"), (":path", path), .. extra]);

    public Task SendHeaders(int stream, bool endStream, params (string Name, string Value)[] fields)
    {
        var block = Block(fields);
        return Send(b => Http2FrameWriter.WriteHeaders(b, stream, block, endStream, Http2Settings.MinMaxFrameSize));
    }

    public Task SendData(int stream, byte[] data, bool endStream) => Send(b => Http2FrameWriter.WriteData(b, stream, data, endStream));

    /// <summary>The next frame (SETTINGS ACK and PING ACK included), or throws when the server closed first.</summary>
    public async Task<Http2ReceivedFrame> ReadFrame()
    {
        while (true)
        {
            var status = _reader.Read(_buffer.AsSpan(_start, _end - _start), out var frame, out var consumed);
            Http2ReceivedFrame? result = status == Http2ReadStatus.Frame
                ? new(frame.Type, frame.Flags, frame.StreamId, frame.Payload.ToArray(), frame.ErrorCode, frame.WindowIncrement, frame.LastStreamId)
                : null;
            _start += consumed;
            if (result != null)
                return result;
            if (status != Http2ReadStatus.NeedMoreData)
                throw new InvalidOperationException("the server sent a bad frame: " + _reader.ErrorReason);
            Array.Copy(_buffer, _start, _buffer, 0, _end - _start);
            _end -= _start;
            _start = 0;
            var received = await Wait.For(_socket.ReceiveAsync(_buffer.AsMemory(_end), SocketFlags.None).AsTask(), "a frame from the server");
            if (received == 0)
                throw new InvalidOperationException("the server closed the connection");
            _end += received;
        }
    }

    /// <summary>Reads frames until one matches; the others are skipped (counted in <paramref name="skipped"/> when given).</summary>
    public async Task<Http2ReceivedFrame> ReadUntil(Func<Http2ReceivedFrame, bool> match, List<Http2ReceivedFrame>? skipped = null)
    {
        for (var i = 0; i < 100_000; i++)
        {
            var frame = await ReadFrame();
            if (match(frame))
                return frame;
            skipped?.Add(frame);
        }
        throw new InvalidOperationException("no such frame in 100000");
    }

    /// <summary>Reads the GOAWAY the server sends (frames before it skipped) and returns its code.</summary>
    public async Task<Http2ErrorCode> GoAway() => (await ReadUntil(f => f.Type == Http2FrameType.GoAway)).ErrorCode;

    /// <summary>Reads the RST_STREAM for <paramref name="stream"/> (frames before it skipped) and returns its code.</summary>
    public async Task<Http2ErrorCode> ResetOf(int stream) => (await ReadUntil(f => f.Type == Http2FrameType.RstStream && f.StreamId == stream)).ErrorCode;

    /// <summary>
    /// Reads the response on <paramref name="stream"/> up to END_STREAM (other streams' frames skipped); with
    /// <paramref name="credit"/>, gives back the window of each DATA frame read, as a real client does; the frames of
    /// other streams and of the connection go to <paramref name="skipped"/> when given. <paramref name="withheld"/> names a
    /// stream whose window is never given back (its DATA still credits the connection, as a client that reads it but
    /// leaves its consumer stalled). With <paramref name="creditBatch"/>, the stream's window is given back only once that
    /// many of its bytes were read (a slow reader), and the server sending past the window it was given throws.
    /// </summary>
    public async Task<Http2RawResponse> Response(int stream, bool credit = true, List<Http2ReceivedFrame>? skipped = null, int withheld = 0, int creditBatch = 0)
    {
        var fields = new List<string>();
        var body = new List<byte>();
        var owed = 0;
        var outstanding = 0L;
        while (true)
        {
            var frame = await ReadFrame();
            if (frame.Type == Http2FrameType.GoAway)
                throw new InvalidOperationException($"GOAWAY {frame.ErrorCode}: {Encoding.ASCII.GetString(frame.Payload)}");
            if (frame.Type == Http2FrameType.RstStream && frame.StreamId == stream)
                throw new InvalidOperationException($"RST_STREAM {frame.ErrorCode} on stream {stream}");
            if (frame.Type is Http2FrameType.Headers or Http2FrameType.Continuation)
            {
                _block.AddRange(frame.Payload);
                if ((frame.Flags & Http2FrameFlags.EndHeaders) != 0)
                {
                    var decoded = HpackTesting.Decode(_decoder, [.. _block]);
                    _block.Clear();
                    if (frame.StreamId == stream)
                        fields.AddRange(decoded.Fields);
                }
            }
            if (frame.Type == Http2FrameType.Data && credit && frame.Payload.Length > 0)
            {
                await Send(b => Http2FrameWriter.WriteWindowUpdate(b, 0, frame.Payload.Length));
                if (creditBatch > 0 && frame.StreamId == stream)
                {
                    outstanding += frame.Payload.Length;
                    if (outstanding > Http2Settings.DefaultInitialWindowSize)
                        throw new InvalidOperationException($"the server sent {outstanding} bytes on stream {stream} against a window of {Http2Settings.DefaultInitialWindowSize}");
                    owed += frame.Payload.Length;
                    if (owed >= creditBatch && !frame.EndStream)
                    {
                        var increment = owed;
                        await Send(b => Http2FrameWriter.WriteWindowUpdate(b, stream, increment));
                        outstanding -= owed;
                        owed = 0;
                    }
                }
                else if (!frame.EndStream && frame.StreamId != withheld)
                {
                    await Send(b => Http2FrameWriter.WriteWindowUpdate(b, frame.StreamId, frame.Payload.Length));
                }
            }
            if (frame.StreamId != stream)
            {
                skipped?.Add(frame);
                continue;
            }
            if (frame.Type == Http2FrameType.Data)
                body.AddRange(frame.Payload);
            // Its head may have been read before this call; an interim head (1xx) does not end it.
            if (frame.EndStream && (fields.Count == 0 || !fields[^1].StartsWith(":status: 1", StringComparison.Ordinal)))
                break;
        }
        var statusField = fields.LastOrDefault(f => f.StartsWith(":status: ", StringComparison.Ordinal));
        var status = statusField == null ? 0 : int.Parse(statusField[9..], System.Globalization.CultureInfo.InvariantCulture);
        return new Http2RawResponse(status, fields, [.. body]);
    }

    /// <summary>Completes when the server closed the connection; frames before it skipped.</summary>
    public async Task Closed()
    {
        try
        {
            for (var i = 0; i < 100_000; i++)
                await ReadFrame();
        }
        catch (InvalidOperationException)
        {
            return;
        }
        catch (SocketException)
        {
            return;
        }
        throw new InvalidOperationException("the server kept sending instead of closing");
    }

    public void Dispose() => _socket.Dispose();
}
