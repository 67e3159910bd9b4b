using NetCoreServer.Protocols.Http2;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>The stream state machine (RFC 9113 §5.1) as a server sees it: a request's life, and each frame a state does not allow.</summary>
[TestFixture]
public sealed class Http2StreamTransitionsTests
{
    [Test]
    public void ARequestWithABodyAndItsResponseCloseTheStream()
    {
        var state = Received(Http2StreamState.Idle, Http2FrameType.Headers, endStream: false);
        Assert.That(state, Is.EqualTo(Http2StreamState.Open));
        state = Received(state, Http2FrameType.Data, endStream: false);
        state = Received(state, Http2FrameType.Data, endStream: true);
        Assert.That(state, Is.EqualTo(Http2StreamState.HalfClosedRemote));
        state = Http2StreamTransitions.Sent(state, Http2FrameType.Headers, endStream: false);
        Assert.That(state, Is.EqualTo(Http2StreamState.HalfClosedRemote));
        state = Received(state, Http2FrameType.WindowUpdate, endStream: false);
        state = Http2StreamTransitions.Sent(state, Http2FrameType.Data, endStream: true);
        Assert.That(state, Is.EqualTo(Http2StreamState.Closed));
        Assert.That(Received(state, Http2FrameType.RstStream, endStream: false), Is.EqualTo(Http2StreamState.Closed), "a late RST_STREAM is ignored");
    }

    [Test]
    public void AResponseSentBeforeTheBodyEndsHalfClosesLocally()
    {
        var state = Received(Http2StreamState.Idle, Http2FrameType.Headers, endStream: false);
        state = Http2StreamTransitions.Sent(state, Http2FrameType.Headers, endStream: true);
        Assert.That(state, Is.EqualTo(Http2StreamState.HalfClosedLocal));
        state = Received(state, Http2FrameType.Headers, endStream: true);
        Assert.That(state, Is.EqualTo(Http2StreamState.Closed), "trailers end it");
    }

    [Test]
    public void PriorityIsAllowedInEveryState()
    {
        foreach (var state in new[] { Http2StreamState.Idle, Http2StreamState.Open, Http2StreamState.HalfClosedRemote, Http2StreamState.Closed })
            Assert.That(Received(state, Http2FrameType.Priority, endStream: false), Is.EqualTo(state));
    }

    [TestCase((int)Http2StreamState.Idle, (int)Http2FrameType.Data, false, (uint)Http2ErrorCode.ProtocolError, true, TestName = "DATA on an idle stream is a connection PROTOCOL_ERROR")]
    [TestCase((int)Http2StreamState.Idle, (int)Http2FrameType.RstStream, false, (uint)Http2ErrorCode.ProtocolError, true, TestName = "RST_STREAM on an idle stream is a connection PROTOCOL_ERROR")]
    [TestCase((int)Http2StreamState.Idle, (int)Http2FrameType.WindowUpdate, false, (uint)Http2ErrorCode.ProtocolError, true, TestName = "WINDOW_UPDATE on an idle stream is a connection PROTOCOL_ERROR")]
    [TestCase((int)Http2StreamState.Open, (int)Http2FrameType.Headers, false, (uint)Http2ErrorCode.ProtocolError, false, TestName = "A second HEADERS without END_STREAM is a stream PROTOCOL_ERROR")]
    [TestCase((int)Http2StreamState.HalfClosedRemote, (int)Http2FrameType.Data, false, (uint)Http2ErrorCode.StreamClosed, false, TestName = "DATA after END_STREAM is a stream STREAM_CLOSED")]
    [TestCase((int)Http2StreamState.HalfClosedRemote, (int)Http2FrameType.Headers, true, (uint)Http2ErrorCode.StreamClosed, false, TestName = "HEADERS after END_STREAM is a stream STREAM_CLOSED")]
    [TestCase((int)Http2StreamState.Closed, (int)Http2FrameType.Data, false, (uint)Http2ErrorCode.StreamClosed, false, TestName = "DATA on a closed stream is STREAM_CLOSED")]
    public void AFrameTheStateDoesNotAllowIsAnError(int streamState, int frameType, bool endStream, uint code, bool connection)
    {
        var state = (Http2StreamState)streamState;
        var next = Http2StreamTransitions.Received(state, (Http2FrameType)frameType, endStream, out var error, out var connectionError);
        Assert.That((next, error, connectionError), Is.EqualTo((state, (Http2ErrorCode)code, connection)));
    }

    [Test]
    public void NewStreamIdentifiersMustBeOddAndIncreasing()
    {
        Assert.That(Http2StreamTransitions.ClassifyNewStream(5, highestOpened: 3, out var even), Is.EqualTo(Http2StreamState.Idle));
        Assert.That(even, Is.False);
        Assert.That(Http2StreamTransitions.ClassifyNewStream(3, highestOpened: 7, out _), Is.EqualTo(Http2StreamState.Closed), "a lower identifier was used or skipped");
        Http2StreamTransitions.ClassifyNewStream(8, highestOpened: 7, out even);
        Assert.That(even, Is.True, "an even identifier from a client is a connection PROTOCOL_ERROR");
    }

    private static Http2StreamState Received(Http2StreamState state, Http2FrameType type, bool endStream)
    {
        var next = Http2StreamTransitions.Received(state, type, endStream, out var error, out _);
        Assert.That(error, Is.EqualTo(Http2ErrorCode.NoError), $"{type} in {state}");
        return next;
    }
}
