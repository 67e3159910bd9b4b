using System;
using System.Collections.Generic;
using System.Linq;
using NetCoreServer.Protocols.Http2;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// The frame reader: the preface, each frame type read whole and byte by byte, and each rule of RFC 9113 §4-6 that
/// needs no stream state, broken once, with the error code and scope (stream or connection) the RFC names.
/// </summary>
[TestFixture]
public sealed class Http2FrameReaderTests
{
    private static readonly byte[] s_settings = Frame(Http2FrameType.Settings, 0, 0, "");

    [Test]
    public void ThePrefaceAndSettingsAreReadInOneCall()
    {
        var reader = new Http2FrameReader();
        var wire = Http2Preface.Client.ToArray().Concat(Frame(Http2FrameType.Settings, 0, 0, "000400010000")).ToArray();
        Assert.That(reader.Read(wire, out var frame, out var consumed), Is.EqualTo(Http2ReadStatus.Frame));
        Assert.That((frame.Type, frame.Ack, Convert.ToHexString(frame.Payload), consumed), Is.EqualTo((Http2FrameType.Settings, false, "000400010000", wire.Length)));
    }

    [Test]
    public void EveryPrefixOfAFrameStreamNeedsMoreDataAndNothingIsConsumedEarly()
    {
        var wire = Http2Preface.Client.ToArray().Concat(s_settings).Concat(Frame(Http2FrameType.Ping, 0, 0, "0102030405060708")).ToArray();
        var prefaceAndSettings = Http2Preface.Client.Length + s_settings.Length;
        for (var cut = 0; cut < wire.Length; cut++)
        {
            var reader = new Http2FrameReader();
            var status = reader.Read(wire.AsSpan(0, cut), out _, out var consumed);
            var expected = cut < prefaceAndSettings ? Http2ReadStatus.NeedMoreData : Http2ReadStatus.Frame;
            Assert.That(status, Is.EqualTo(expected), $"cut at {cut}");
            if (status == Http2ReadStatus.NeedMoreData)
                Assert.That(consumed, Is.EqualTo(cut >= Http2Preface.Client.Length ? Http2Preface.Client.Length : 0), $"cut at {cut}: only the preface may be consumed");
        }
    }

    [Test]
    public void AnHttp11RequestIsNotThePreface()
    {
        var reader = new Http2FrameReader();
        Assert.That(reader.Read("GET / HTTP/1.1\r\n"u8, out _, out _), Is.EqualTo(Http2ReadStatus.ConnectionError));
        Assert.That(reader.ErrorCode, Is.EqualTo(Http2ErrorCode.ProtocolError));
        Assert.That(Http2Preface.Matches("PRI * HT"u8), Is.Null, "a prefix is undecided");
        Assert.That(Http2Preface.Matches("PRI * HX"u8), Is.False, "a wrong byte is known at once");
    }

    [TestCase((int)Http2FrameType.Ping, (byte)0, TestName = "The preface followed by PING is a protocol error")]
    [TestCase((int)Http2FrameType.Settings, Http2FrameFlags.Ack, TestName = "The preface followed by a SETTINGS acknowledgement is a protocol error")]
    public void ThePrefaceMustBeFollowedBySettings(int frameType, byte flags)
    {
        var type = (Http2FrameType)frameType;
        var reader = new Http2FrameReader();
        var wire = Http2Preface.Client.ToArray().Concat(Frame(type, flags, 0, type == Http2FrameType.Ping ? "0000000000000000" : "")).ToArray();
        Assert.That(reader.Read(wire, out _, out _), Is.EqualTo(Http2ReadStatus.ConnectionError));
        Assert.That(reader.ErrorCode, Is.EqualTo(Http2ErrorCode.ProtocolError));
    }

    [Test]
    public void DataIsReadWithAndWithoutPadding()
    {
        var frame = ReadOne(Frame(Http2FrameType.Data, Http2FrameFlags.EndStream, 1, "616263"), out var status);
        Assert.That((status, frame.Text, frame.EndStream, frame.Length), Is.EqualTo((Http2ReadStatus.Frame, "abc", true, 3)));
        frame = ReadOne(Frame(Http2FrameType.Data, Http2FrameFlags.Padded, 3, "02616263 0000"), out status);
        Assert.That((status, frame.Text, frame.EndStream, frame.Length), Is.EqualTo((Http2ReadStatus.Frame, "abc", false, 6)), "Length counts the padding, as flow control does");
        frame = ReadOne(Frame(Http2FrameType.Data, Http2FrameFlags.Padded, 3, "02 0000"), out status);
        Assert.That((status, frame.Text), Is.EqualTo((Http2ReadStatus.Frame, "")), "padding may fill the frame after its length byte");
    }

    [Test]
    public void HeadersAreReadWithPaddingAndPriority()
    {
        var flags = (byte)(Http2FrameFlags.Padded | Http2FrameFlags.Priority | Http2FrameFlags.EndHeaders | Http2FrameFlags.EndStream);
        var frame = ReadOne(Frame(Http2FrameType.Headers, flags, 5, "01 80000003 0f 82 00"), out var status);
        Assert.That(status, Is.EqualTo(Http2ReadStatus.Frame));
        Assert.That((frame.Hex, frame.Exclusive, frame.StreamDependency, frame.Weight, frame.EndStream, frame.EndHeaders), Is.EqualTo(("82", true, 3, 16, true, true)));
    }

    [Test]
    public void AFieldBlockContinuesOnlyWithContinuationOnItsStream()
    {
        var reader = Started();
        var wire = Frame(Http2FrameType.Headers, 0, 1, "82")
            .Concat(Frame(Http2FrameType.Continuation, 0, 1, "86"))
            .Concat(Frame(Http2FrameType.Continuation, Http2FrameFlags.EndHeaders, 1, "84"))
            .Concat(Frame(Http2FrameType.Ping, 0, 0, "0000000000000000")).ToArray();
        var fragments = new List<string>();
        var at = 0;
        while (reader.Read(wire.AsSpan(at), out var frame, out var consumed) == Http2ReadStatus.Frame)
        {
            fragments.Add($"{frame.Type} {Convert.ToHexString(frame.Payload)} {reader.InFieldBlock}");
            at += consumed;
        }
        Assert.That(fragments, Is.EqualTo(new[] { "Headers 82 True", "Continuation 86 True", "Continuation 84 False", "Ping 0000000000000000 False" }));
    }

    [Test]
    public void AnUnknownFrameTypeIsSkipped()
    {
        var reader = Started();
        var wire = Frame((Http2FrameType)0xfa, 0xff, 0, "01020304").Concat(Frame(Http2FrameType.Ping, 0, 0, "0000000000000001")).ToArray();
        Assert.That(reader.Read(wire, out var frame, out var consumed), Is.EqualTo(Http2ReadStatus.Frame));
        Assert.That((frame.Type, consumed), Is.EqualTo((Http2FrameType.Ping, wire.Length)));
    }

    [Test]
    public void TheReservedStreamBitIsIgnored()
    {
        var frame = ReadOne(Frame(Http2FrameType.Data, 0, 1, "61", reservedBit: true), out var status);
        Assert.That((status, frame.StreamId), Is.EqualTo((Http2ReadStatus.Frame, 1)));
    }

    [Test]
    public void AFrameOverMaxFrameSizeIsRefusedFromItsHeaderAlone()
    {
        var header = new byte[9];
        Http2FrameWriter.WriteHeader(header, 16_385, Http2FrameType.Data, 0, 1);
        var reader = Started();
        Assert.That(reader.Read(header, out _, out _), Is.EqualTo(Http2ReadStatus.ConnectionError));
        Assert.That(reader.ErrorCode, Is.EqualTo(Http2ErrorCode.FrameSizeError));

        var raised = Started();
        raised.MaxFrameSize = 16_385;
        Assert.That(raised.Read(header, out _, out _), Is.EqualTo(Http2ReadStatus.NeedMoreData), "allowed once the larger size is in effect");
    }

    [Test]
    public void OtherFramesAreReadWithTheirFields()
    {
        var frame = ReadOne(Frame(Http2FrameType.RstStream, 0, 7, "00000008"), out _);
        Assert.That((frame.Type, frame.StreamId, frame.ErrorCode), Is.EqualTo((Http2FrameType.RstStream, 7, Http2ErrorCode.Cancel)));
        frame = ReadOne(Frame(Http2FrameType.Priority, 0, 7, "00000005 ff"), out _);
        Assert.That((frame.StreamDependency, frame.Exclusive, frame.Weight), Is.EqualTo((5, false, 256)));
        frame = ReadOne(Frame(Http2FrameType.Ping, Http2FrameFlags.Ack, 0, "0102030405060708"), out _);
        Assert.That((frame.Ack, frame.Hex), Is.EqualTo((true, "0102030405060708")));
        frame = ReadOne(Frame(Http2FrameType.GoAway, 0, 0, "80000009 0000000b 6869"), out _);
        Assert.That((frame.LastStreamId, frame.ErrorCode, frame.Text), Is.EqualTo((9, Http2ErrorCode.EnhanceYourCalm, "hi")));
        frame = ReadOne(Frame(Http2FrameType.WindowUpdate, 0, 0, "80010000"), out _);
        Assert.That(frame.WindowIncrement, Is.EqualTo(0x10000), "the reserved bit is not part of the increment");
    }

    public static IEnumerable<TestCaseData> ConnectionErrors()
    {
        TestCaseData Case(string name, byte[] frame, Http2ErrorCode code) => new TestCaseData(frame, (uint)code).SetName(name);
        yield return Case("DATA on stream 0 is a connection PROTOCOL_ERROR", Frame(Http2FrameType.Data, 0, 0, "61"), Http2ErrorCode.ProtocolError);
        yield return Case("DATA padding as long as its payload is a connection PROTOCOL_ERROR", Frame(Http2FrameType.Data, Http2FrameFlags.Padded, 1, "03 6161"), Http2ErrorCode.ProtocolError);
        yield return Case("DATA marked padded without a pad length is a connection PROTOCOL_ERROR", Frame(Http2FrameType.Data, Http2FrameFlags.Padded, 1, ""), Http2ErrorCode.ProtocolError);
        yield return Case("HEADERS on stream 0 is a connection PROTOCOL_ERROR", Frame(Http2FrameType.Headers, Http2FrameFlags.EndHeaders, 0, "82"), Http2ErrorCode.ProtocolError);
        yield return Case("HEADERS padding past its fragment is a connection PROTOCOL_ERROR", Frame(Http2FrameType.Headers, Http2FrameFlags.Padded | Http2FrameFlags.EndHeaders, 1, "02 82"), Http2ErrorCode.ProtocolError);
        yield return Case("HEADERS too short for its priority fields is a connection FRAME_SIZE_ERROR", Frame(Http2FrameType.Headers, Http2FrameFlags.Priority | Http2FrameFlags.EndHeaders, 1, "000000"), Http2ErrorCode.FrameSizeError);
        yield return Case("PRIORITY on stream 0 is a connection PROTOCOL_ERROR", Frame(Http2FrameType.Priority, 0, 0, "0000000310"), Http2ErrorCode.ProtocolError);
        yield return Case("RST_STREAM on stream 0 is a connection PROTOCOL_ERROR", Frame(Http2FrameType.RstStream, 0, 0, "00000008"), Http2ErrorCode.ProtocolError);
        yield return Case("RST_STREAM of 3 bytes is a connection FRAME_SIZE_ERROR", Frame(Http2FrameType.RstStream, 0, 1, "000008"), Http2ErrorCode.FrameSizeError);
        yield return Case("SETTINGS on a stream is a connection PROTOCOL_ERROR", Frame(Http2FrameType.Settings, 0, 1, ""), Http2ErrorCode.ProtocolError);
        yield return Case("A SETTINGS acknowledgement with a payload is a connection FRAME_SIZE_ERROR", Frame(Http2FrameType.Settings, Http2FrameFlags.Ack, 0, "000400010000"), Http2ErrorCode.FrameSizeError);
        yield return Case("SETTINGS of 5 bytes is a connection FRAME_SIZE_ERROR", Frame(Http2FrameType.Settings, 0, 0, "0004000100"), Http2ErrorCode.FrameSizeError);
        yield return Case("SETTINGS_ENABLE_PUSH of 2 is a connection PROTOCOL_ERROR", Frame(Http2FrameType.Settings, 0, 0, "000200000002"), Http2ErrorCode.ProtocolError);
        yield return Case("SETTINGS_INITIAL_WINDOW_SIZE of 2^31 is a connection FLOW_CONTROL_ERROR", Frame(Http2FrameType.Settings, 0, 0, "000480000000"), Http2ErrorCode.FlowControlError);
        yield return Case("SETTINGS_MAX_FRAME_SIZE below 2^14 is a connection PROTOCOL_ERROR", Frame(Http2FrameType.Settings, 0, 0, "000500003fff"), Http2ErrorCode.ProtocolError);
        yield return Case("SETTINGS_MAX_FRAME_SIZE of 2^24 is a connection PROTOCOL_ERROR", Frame(Http2FrameType.Settings, 0, 0, "000501000000"), Http2ErrorCode.ProtocolError);
        yield return Case("PUSH_PROMISE sent to a server is a connection PROTOCOL_ERROR", Frame(Http2FrameType.PushPromise, Http2FrameFlags.EndHeaders, 1, "0000000282"), Http2ErrorCode.ProtocolError);
        yield return Case("PING on a stream is a connection PROTOCOL_ERROR", Frame(Http2FrameType.Ping, 0, 1, "0000000000000000"), Http2ErrorCode.ProtocolError);
        yield return Case("PING of 7 bytes is a connection FRAME_SIZE_ERROR", Frame(Http2FrameType.Ping, 0, 0, "00000000000000"), Http2ErrorCode.FrameSizeError);
        yield return Case("GOAWAY on a stream is a connection PROTOCOL_ERROR", Frame(Http2FrameType.GoAway, 0, 1, "0000000000000000"), Http2ErrorCode.ProtocolError);
        yield return Case("GOAWAY of 7 bytes is a connection FRAME_SIZE_ERROR", Frame(Http2FrameType.GoAway, 0, 0, "00000000000000"), Http2ErrorCode.FrameSizeError);
        yield return Case("WINDOW_UPDATE of 0 for the connection is a connection PROTOCOL_ERROR", Frame(Http2FrameType.WindowUpdate, 0, 0, "00000000"), Http2ErrorCode.ProtocolError);
        yield return Case("WINDOW_UPDATE of 5 bytes is a connection FRAME_SIZE_ERROR", Frame(Http2FrameType.WindowUpdate, 0, 1, "0000000100"), Http2ErrorCode.FrameSizeError);
        yield return Case("CONTINUATION without an open field block is a connection PROTOCOL_ERROR", Frame(Http2FrameType.Continuation, Http2FrameFlags.EndHeaders, 1, "82"), Http2ErrorCode.ProtocolError);
        yield return Case("CONTINUATION on stream 0 is a connection PROTOCOL_ERROR", Frame(Http2FrameType.Continuation, Http2FrameFlags.EndHeaders, 0, "82"), Http2ErrorCode.ProtocolError);
        var open = Frame(Http2FrameType.Headers, 0, 1, "82");
        yield return Case("PING inside a field block is a connection PROTOCOL_ERROR", [.. open, .. Frame(Http2FrameType.Ping, 0, 0, "0000000000000000")], Http2ErrorCode.ProtocolError);
        yield return Case("CONTINUATION on another stream is a connection PROTOCOL_ERROR", [.. open, .. Frame(Http2FrameType.Continuation, Http2FrameFlags.EndHeaders, 3, "86")], Http2ErrorCode.ProtocolError);
        yield return Case("An unknown frame inside a field block is a connection PROTOCOL_ERROR", [.. open, .. Frame((Http2FrameType)0xfa, 0, 1, "")], Http2ErrorCode.ProtocolError);
        yield return Case("DATA inside a field block is a connection PROTOCOL_ERROR", [.. open, .. Frame(Http2FrameType.Data, 0, 1, "61")], Http2ErrorCode.ProtocolError);
    }

    [TestCaseSource(nameof(ConnectionErrors))]
    public void ABrokenRuleIsAConnectionErrorWithTheRfcCode(byte[] frames, uint errorCode)
    {
        var code = (Http2ErrorCode)errorCode;
        var reader = Started();
        var status = ReadAll(reader, frames);
        Assert.That((status, reader.ErrorCode, reader.ErrorStreamId), Is.EqualTo((Http2ReadStatus.ConnectionError, code, 0)), reader.ErrorReason);
        Assert.That(reader.ErrorReason, Is.Not.Empty);
        Assert.That(reader.Read(Frame(Http2FrameType.Ping, 0, 0, "0000000000000000"), out _, out _), Is.EqualTo(Http2ReadStatus.ConnectionError), "the reader stays failed");
    }

    public static IEnumerable<TestCaseData> StreamErrors()
    {
        TestCaseData Case(string name, byte[] frame, Http2ErrorCode code) => new TestCaseData(frame, (uint)code).SetName(name);
        yield return Case("PRIORITY of 4 bytes is a stream FRAME_SIZE_ERROR", Frame(Http2FrameType.Priority, 0, 3, "00000001"), Http2ErrorCode.FrameSizeError);
        yield return Case("PRIORITY on itself is a stream PROTOCOL_ERROR", Frame(Http2FrameType.Priority, 0, 3, "0000000310"), Http2ErrorCode.ProtocolError);
        yield return Case("HEADERS depending on itself is a stream PROTOCOL_ERROR", Frame(Http2FrameType.Headers, Http2FrameFlags.Priority | Http2FrameFlags.EndHeaders, 3, "0000000310 82"), Http2ErrorCode.ProtocolError);
        yield return Case("WINDOW_UPDATE of 0 for a stream is a stream PROTOCOL_ERROR", Frame(Http2FrameType.WindowUpdate, 0, 3, "00000000"), Http2ErrorCode.ProtocolError);
    }

    [TestCaseSource(nameof(StreamErrors))]
    public void ABrokenStreamRuleResetsOnlyThatStream(byte[] frame, uint errorCode)
    {
        var code = (Http2ErrorCode)errorCode;
        var reader = Started();
        var wire = frame.Concat(Frame(Http2FrameType.Ping, 0, 0, "0000000000000000")).ToArray();
        Assert.That(reader.Read(wire, out _, out var consumed), Is.EqualTo(Http2ReadStatus.StreamError));
        Assert.That((reader.ErrorCode, reader.ErrorStreamId, consumed), Is.EqualTo((code, 3, frame.Length)));
        Assert.That(reader.Read(wire.AsSpan(consumed), out var next, out _), Is.EqualTo(Http2ReadStatus.Frame), "the connection goes on");
        Assert.That(next.Type, Is.EqualTo(Http2FrameType.Ping));
    }

    [Test]
    public void SettingsApplyInOrderAndIgnoreUnknownParameters()
    {
        var frame = ReadOne(Frame(Http2FrameType.Settings, 0, 0, "000100000100 000300000064 0004000fffff 000500004000 00ff00000007 000600002000 000200000000"), out var status);
        Assert.That(status, Is.EqualTo(Http2ReadStatus.Frame));
        var settings = new Http2Settings();
        settings.Apply(Convert.FromHexString(frame.Hex));
        Assert.That((settings.HeaderTableSize, settings.MaxConcurrentStreams, settings.InitialWindowSize, settings.MaxFrameSize, settings.MaxHeaderListSize, settings.EnablePush),
            Is.EqualTo((256u, 100u, 0xfffff, 16_384, 8192u, false)));
    }

    [Test]
    public void WrittenFramesReadBack()
    {
        var buffer = new byte[70_000];
        var block = Enumerable.Range(0, 40_000).Select(i => (byte)i).ToArray();
        var at = Http2FrameWriter.WriteSettings(buffer, [(Http2SettingId.MaxConcurrentStreams, 100), (Http2SettingId.InitialWindowSize, 1 << 20)]);
        at += Http2FrameWriter.WriteSettingsAck(buffer.AsSpan(at));
        at += Http2FrameWriter.WriteHeaders(buffer.AsSpan(at), 1, block, endStream: true, maxFrameSize: 16_384);
        at += Http2FrameWriter.WriteData(buffer.AsSpan(at), 1, "body"u8, endStream: true);
        at += Http2FrameWriter.WritePing(buffer.AsSpan(at), "12345678"u8, ack: true);
        at += Http2FrameWriter.WriteRstStream(buffer.AsSpan(at), 1, Http2ErrorCode.Cancel);
        at += Http2FrameWriter.WriteWindowUpdate(buffer.AsSpan(at), 0, 1000);
        at += Http2FrameWriter.WriteGoAway(buffer.AsSpan(at), 1, Http2ErrorCode.NoError, "bye"u8);
        Assert.That(Http2FrameWriter.HeadersLength(block.Length, 16_384), Is.EqualTo(block.Length + 27), "three frames");

        var reader = Started();
        var seen = new List<string>();
        var fieldBlock = new List<byte>();
        var position = 0;
        while (position < at)
        {
            Assert.That(reader.Read(buffer.AsSpan(position, at - position), out var frame, out var consumed), Is.EqualTo(Http2ReadStatus.Frame), reader.ErrorReason);
            position += consumed;
            if (frame.Type is Http2FrameType.Headers or Http2FrameType.Continuation)
                fieldBlock.AddRange(frame.Payload.ToArray());
            seen.Add($"{frame.Type}:{frame.Length}:{frame.EndStream}:{frame.EndHeaders}:{frame.Ack}");
        }
        Assert.That(seen, Is.EqualTo(new[]
        {
            "Settings:12:False:False:False", "Settings:0:False:False:True", "Headers:16384:True:False:False", "Continuation:16384:False:False:False",
            "Continuation:7232:False:True:False", "Data:4:True:False:False", "Ping:8:False:False:True", "RstStream:4:False:False:False",
            "WindowUpdate:4:False:False:False", "GoAway:11:False:False:False",
        }));
        Assert.That(fieldBlock, Is.EqualTo(block), "the field block is whole again");
    }

    /// <summary>A frame on the wire: the header and the payload given in hex (spaces ignored).</summary>
    internal static byte[] Frame(Http2FrameType type, byte flags, int streamId, string payloadHex, bool reservedBit = false)
    {
        var payload = HpackTesting.Hex(payloadHex);
        var frame = new byte[9 + payload.Length];
        Http2FrameWriter.WriteHeader(frame, payload.Length, type, flags, streamId);
        if (reservedBit)
            frame[5] |= 0x80;
        payload.CopyTo(frame, 9);
        return frame;
    }

    // A reader past the preface and the first SETTINGS.
    private static Http2FrameReader Started()
    {
        var reader = new Http2FrameReader(expectPreface: false);
        Assert.That(reader.Read(s_settings, out _, out _), Is.EqualTo(Http2ReadStatus.Frame));
        return reader;
    }

    private static Http2ReadStatus ReadAll(Http2FrameReader reader, byte[] wire)
    {
        var at = 0;
        while (true)
        {
            var status = reader.Read(wire.AsSpan(at), out _, out var consumed);
            at += consumed;
            if (status != Http2ReadStatus.Frame || at == wire.Length)
                return status;
        }
    }

    private static Snapshot ReadOne(byte[] wire, out Http2ReadStatus status)
    {
        var reader = Started();
        status = reader.Read(wire, out var frame, out var consumed);
        Assert.That(consumed, Is.EqualTo(wire.Length), "the frame is consumed whole");
        return new Snapshot(frame);
    }

    /// <summary>A frame's fields copied out of its ref struct.</summary>
    private sealed class Snapshot(Http2Frame frame)
    {
        public Http2FrameType Type { get; } = frame.Type;
        public int StreamId { get; } = frame.StreamId;
        public int Length { get; } = frame.Length;
        public string Hex { get; } = Convert.ToHexString(frame.Payload);
        public string Text { get; } = System.Text.Encoding.ASCII.GetString(frame.Payload);
        public bool EndStream { get; } = frame.EndStream;
        public bool EndHeaders { get; } = frame.EndHeaders;
        public bool Ack { get; } = frame.Ack;
        public bool Exclusive { get; } = frame.Exclusive;
        public int StreamDependency { get; } = frame.StreamDependency;
        public int Weight { get; } = frame.Weight;
        public Http2ErrorCode ErrorCode { get; } = frame.ErrorCode;
        public int LastStreamId { get; } = frame.LastStreamId;
        public int WindowIncrement { get; } = frame.WindowIncrement;
    }
}
