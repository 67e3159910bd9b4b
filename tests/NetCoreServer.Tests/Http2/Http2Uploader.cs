using System;
using System.Collections.Generic;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Http2;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// Sends a request body on one stream of a <see cref="Http2RawClient"/> as a well-behaved client does: never past the
/// stream's or the connection's window, reading the server's WINDOW_UPDATE frames while both are closed.
/// </summary>
internal sealed class Http2Uploader(Http2RawClient client, int stream)
{
    // The connection's window starts at the protocol's 65,535; the server's first WINDOW_UPDATE raises it.
    private long _connection = Http2Settings.DefaultInitialWindowSize;
    private long _stream = Http2Limits.StreamWindow;

    /// <summary>The body bytes sent so far.</summary>
    public long Sent { get; private set; }

    /// <summary>The credit the server gave back on the stream (WINDOW_UPDATE increments).</summary>
    public long StreamCredit { get; private set; }

    /// <summary>
    /// Sends <paramref name="body"/>[<paramref name="from"/>..<paramref name="to"/>) in frames of up to 16 KiB;
    /// <paramref name="blocked"/> runs once, the first time the stream's window is spent (before waiting for credit).
    /// </summary>
    public async Task Send(byte[] body, int from, int to, bool endStream, Func<Task>? blocked = null)
    {
        var sent = from;
        while (sent < to)
        {
            var size = (int)Math.Min(Math.Min(16_384, to - sent), Math.Min(_connection, _stream));
            if (size <= 0)
            {
                if (_stream <= 0 && blocked != null)
                {
                    var once = blocked;
                    blocked = null;
                    await once();
                }
                Take(await client.ReadFrame());
                continue;
            }
            await client.SendData(stream, body.AsSpan(sent, size).ToArray(), endStream && sent + size == to);
            sent += size;
            Sent += size;
            _connection -= size;
            _stream -= size;
        }
    }

    /// <summary>Counts the credit in frames read elsewhere (skipped while reading another stream's response).</summary>
    public void Take(IEnumerable<Http2ReceivedFrame> frames)
    {
        foreach (var frame in frames)
            Take(frame);
    }

    private void Take(Http2ReceivedFrame frame)
    {
        if (frame.Type == Http2FrameType.GoAway || (frame.StreamId == stream && frame.Type != Http2FrameType.WindowUpdate))
            throw new InvalidOperationException("the upload was answered or stopped before it was sent: " + frame);
        if (frame.Type != Http2FrameType.WindowUpdate)
            return;
        if (frame.StreamId == 0)
        {
            _connection += frame.Increment;
        }
        else if (frame.StreamId == stream)
        {
            _stream += frame.Increment;
            StreamCredit += frame.Increment;
        }
    }
}
