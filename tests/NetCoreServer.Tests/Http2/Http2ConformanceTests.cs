using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Http2;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// Raw-frame cases in the spirit of h2spec, one per rule of RFC 9113 sections 4-8 and RFC 7541 that a client can break
/// or rely on: each sends its frames on a fresh connection (after the SETTINGS exchange) and expects the server's answer,
/// a GOAWAY with a code (and a close), an RST_STREAM with a code (and a connection that still serves a request), a
/// response status, or nothing but the PING answered (a frame the server must ignore).
/// </summary>
[TestFixture]
public sealed class Http2ConformanceTests
{
    private const byte EndStream = Http2FrameFlags.EndStream;
    private const byte EndHeaders = Http2FrameFlags.EndHeaders;
    private const byte Padded = Http2FrameFlags.Padded;
    private const byte Priority = Http2FrameFlags.Priority;

    private enum Expect
    {
        GoAway,
        Reset,
        Status,
        Ignored,
    }

    private sealed record Case(Func<Http2RawClient, byte[]> Send, Expect Expect, Http2ErrorCode Code = Http2ErrorCode.NoError, int Stream = 1, int Status = 200, Action<HttpOptions>? Options = null, int? LastStream = null);

    private static readonly Dictionary<string, Case> s_cases = Build();

    public static IEnumerable<string> Names => s_cases.Keys;

    [TestCaseSource(nameof(Names))]
    public async Task ServerAnswersAsTheRfcSays(string name)
    {
        var test = s_cases[name];
        using var server = new Http2TestServer();
        test.Options?.Invoke(server.Http);
        server.Start();
        using var client = await Http2RawClient.ConnectAsync(server.Endpoint);
        await client.SendRaw(test.Send(client));
        switch (test.Expect)
        {
            case Expect.GoAway:
                var goAway = await client.ReadUntil(f => f.Type is Http2FrameType.GoAway or Http2FrameType.RstStream);
                Assert.That((goAway.Type, goAway.ErrorCode), Is.EqualTo((Http2FrameType.GoAway, test.Code)), name);
                if (test.LastStream is { } last)
                    Assert.That(goAway.LastStreamId, Is.EqualTo(last), "GOAWAY's last-stream-id");
                await client.Closed();
                return;
            case Expect.Reset:
                var reset = await client.ReadUntil(f => f.Type is Http2FrameType.GoAway || (f.Type == Http2FrameType.RstStream && f.StreamId == test.Stream));
                Assert.That((reset.Type, reset.ErrorCode), Is.EqualTo((Http2FrameType.RstStream, test.Code)), name);
                await client.Get(1001, "/hello");
                Assert.That((await client.Response(1001)).Status, Is.EqualTo(200), "the connection goes on after a stream error");
                return;
            case Expect.Status:
                // Only now: a stream owed an answer stays half-closed (remote) while the case's later frames are read.
                server.ReleaseLate.SetResult();
                Assert.That((await client.Response(test.Stream)).Status, Is.EqualTo(test.Status), name);
                return;
            default:
                await client.Send(b => Http2FrameWriter.WritePing(b, "conform!"u8, ack: false));
                var answer = await client.ReadUntil(f => f.Type is Http2FrameType.GoAway or Http2FrameType.RstStream || (f.Type == Http2FrameType.Ping && f.Ack));
                Assert.That(answer.Type, Is.EqualTo(Http2FrameType.Ping), name + ": ignored, not " + answer);
                Assert.That(answer.Payload, Is.EqualTo("conform!"u8.ToArray()));
                return;
        }
    }

    [Test]
    public void ThereAreAtLeastAHundredCases() => Assert.That(s_cases.Count, Is.GreaterThanOrEqualTo(100));

    // One frame: a header for the payload's length, then the payload.
    private static byte[] F(Http2FrameType type, byte flags, int stream, params byte[] payload)
        => [.. Http2RawClient.Frame(b => Http2FrameWriter.WriteHeader(b, payload.Length, type, flags, stream)), .. payload];

    private static (string, string)[] Request(string path = "/hello", string method = "GET")
        => [(":method", method), (":scheme", "http"), (":authority", "localhost"), (":path", path)];

    private static byte[] Get(Http2RawClient c, int stream = 1, string path = "/hello", byte flags = EndHeaders | EndStream, params (string, string)[] extra)
        => F(Http2FrameType.Headers, flags, stream, c.Block([.. Request(path), .. extra]));

    // A request on stream 1 that stays half-closed (remote): its answer (GET /late) waits until a case that expects a
    // status releases it, after all of its frames were sent.
    private static byte[] Owed(Http2RawClient c) => Get(c, 1, "/late");

    // A POST on stream 1 whose body has not ended: the stream stays open.
    private static byte[] Open(Http2RawClient c, int stream = 1) => F(Http2FrameType.Headers, EndHeaders, stream, c.Block(Request("/echo", "POST")));

    private static byte[] U32(uint value) => [(byte)(value >> 24), (byte)(value >> 16), (byte)(value >> 8), (byte)value];

    private static byte[] Setting(Http2SettingId id, uint value) => [(byte)((ushort)id >> 8), (byte)id, .. U32(value)];

    private static byte[] Malformed(Http2RawClient c, params (string, string)[] fields) => F(Http2FrameType.Headers, EndHeaders | EndStream, 1, c.Block(fields));

    private static Dictionary<string, Case> Build()
    {
        var goAway = Expect.GoAway;
        var reset = Expect.Reset;
        var cases = new Dictionary<string, Case>
        {
            // 4.1 Frame format
            ["4.1 an unknown frame type is ignored"] = new(c => F((Http2FrameType)0x20, 0, 0, 1, 2, 3), Expect.Ignored),
            ["4.1 unknown flags are ignored"] = new(c => Get(c, flags: EndHeaders | EndStream | 0x10 | 0x40), Expect.Status),
            ["4.1 the reserved bit of the stream id is ignored"] = new(c => { var frame = Get(c); frame[5] |= 0x80; return frame; }, Expect.Status),
            // 4.2 Frame size
            ["4.2 DATA over SETTINGS_MAX_FRAME_SIZE"] = new(c => [.. Open(c), .. F(Http2FrameType.Data, 0, 1, new byte[16_385])], goAway, Http2ErrorCode.FrameSizeError),
            ["4.2 HEADERS over SETTINGS_MAX_FRAME_SIZE"] = new(c => F(Http2FrameType.Headers, EndHeaders, 1, new byte[16_385]), goAway, Http2ErrorCode.FrameSizeError),
            ["4.2 a frame of exactly SETTINGS_MAX_FRAME_SIZE is accepted"] = new(c => [.. Open(c), .. F(Http2FrameType.Data, EndStream, 1, new byte[16_384])], Expect.Status),
            // 4.3 Field section compression
            ["4.3 a field block that does not decode"] = new(c => F(Http2FrameType.Headers, EndHeaders | EndStream, 1, 0x80), goAway, Http2ErrorCode.CompressionError),
            ["4.3 PRIORITY between HEADERS and CONTINUATION"] = new(c => [.. F(Http2FrameType.Headers, 0, 1, c.Block(Request())), .. F(Http2FrameType.Priority, 0, 1, 0, 0, 0, 0, 16)], goAway, Http2ErrorCode.ProtocolError),
            ["4.3 HEADERS then CONTINUATION carry one request"] = new(c => { var block = c.Block(Request()); return [.. F(Http2FrameType.Headers, EndStream, 1, block[..3]), .. F(Http2FrameType.Continuation, 0, 1, block[3..5]), .. F(Http2FrameType.Continuation, EndHeaders, 1, block[5..])]; }, Expect.Status),
            // 5.1 Stream states
            ["5.1 idle: DATA"] = new(c => F(Http2FrameType.Data, 0, 1, 1), goAway, Http2ErrorCode.ProtocolError),
            ["5.1 idle: RST_STREAM"] = new(c => F(Http2FrameType.RstStream, 0, 1, U32(8)), goAway, Http2ErrorCode.ProtocolError),
            ["5.1 idle: WINDOW_UPDATE"] = new(c => F(Http2FrameType.WindowUpdate, 0, 1, U32(100)), goAway, Http2ErrorCode.ProtocolError),
            ["5.1 idle: CONTINUATION"] = new(c => F(Http2FrameType.Continuation, EndHeaders, 1, c.Block(Request())), goAway, Http2ErrorCode.ProtocolError),
            ["5.1 idle: PRIORITY is allowed"] = new(c => F(Http2FrameType.Priority, 0, 9, 0, 0, 0, 0, 16), Expect.Ignored),
            ["5.1 half-closed (remote): DATA"] = new(c => [.. Owed(c), .. F(Http2FrameType.Data, 0, 1, 1)], reset, Http2ErrorCode.StreamClosed),
            ["5.1 half-closed (remote): HEADERS"] = new(c => [.. Owed(c), .. F(Http2FrameType.Headers, EndHeaders | EndStream, 1, c.Block(("x-trailer", "1")))], reset, Http2ErrorCode.StreamClosed),
            ["5.1 half-closed (remote): WINDOW_UPDATE is allowed"] = new(c => [.. Owed(c), .. F(Http2FrameType.WindowUpdate, 0, 1, U32(10))], Expect.Ignored),
            ["5.1 half-closed (remote): PRIORITY is allowed"] = new(c => [.. Owed(c), .. F(Http2FrameType.Priority, 0, 1, 0, 0, 0, 0, 16)], Expect.Ignored),
            ["5.1 closed: WINDOW_UPDATE after a reset is allowed"] = new(c => [.. Open(c), .. F(Http2FrameType.RstStream, 0, 1, U32(8)), .. F(Http2FrameType.WindowUpdate, 0, 1, U32(10))], Expect.Ignored),
            ["5.1 closed: RST_STREAM after a reset is allowed"] = new(c => [.. Open(c), .. F(Http2FrameType.RstStream, 0, 1, U32(8)), .. F(Http2FrameType.RstStream, 0, 1, U32(8))], Expect.Ignored),
            ["5.1 closed: HEADERS on an ended stream"] = new(c => [.. Open(c), .. F(Http2FrameType.RstStream, 0, 1, U32(8)), .. Get(c, 1)], goAway, Http2ErrorCode.StreamClosed),
            ["5.1 open: DATA with END_STREAM ends the request"] = new(c => [.. Open(c), .. F(Http2FrameType.Data, EndStream, 1, (byte)'z')], Expect.Status),
            // 5.1.1 Stream identifiers
            ["5.1.1 an even stream identifier"] = new(c => Get(c, 2), goAway, Http2ErrorCode.ProtocolError),
            ["5.1.1 a stream identifier below one opened"] = new(c => [.. Get(c, 5), .. Get(c, 3)], goAway, Http2ErrorCode.StreamClosed),
            ["5.1.1 skipped identifiers are allowed"] = new(c => Get(c, 41), Expect.Status, Stream: 41),
            // 5.1.2 Stream concurrency
            ["5.1.2 a stream past SETTINGS_MAX_CONCURRENT_STREAMS"] = new(c => [.. Open(c, 1), .. Open(c, 3), .. F(Http2FrameType.RstStream, 0, 1, U32(8))], reset, Http2ErrorCode.RefusedStream, Stream: 3, Options: o => o.Http2MaxConcurrentStreams = 1),
            // 5.3 Priority
            ["5.3.1 HEADERS depending on its own stream"] = new(c => F(Http2FrameType.Headers, EndHeaders | EndStream | Priority, 1, [0, 0, 0, 1, 16, .. c.Block(Request())]), reset, Http2ErrorCode.ProtocolError),
            ["5.3.1 PRIORITY depending on its own stream"] = new(c => [.. Open(c), .. F(Http2FrameType.Priority, 0, 1, 0, 0, 0, 1, 16)], reset, Http2ErrorCode.ProtocolError),
            ["5.3.2 PRIORITY on an open stream is ignored"] = new(c => [.. Open(c), .. F(Http2FrameType.Priority, 0, 1, 0x80, 0, 0, 7, 255)], Expect.Ignored),
            // 5.4 Error handling
            ["5.4.1 GOAWAY names the last stream processed"] = new(c => [.. Get(c, 7), .. Get(c, 8)], goAway, Http2ErrorCode.ProtocolError, LastStream: 7),
            // 5.5 Extending HTTP/2
            ["5.5 an unknown frame inside a field block"] = new(c => [.. F(Http2FrameType.Headers, 0, 1, c.Block(Request())), .. F((Http2FrameType)0x20, 0, 1, 1)], goAway, Http2ErrorCode.ProtocolError),
            ["5.5 an unknown SETTINGS parameter is ignored"] = new(c => F(Http2FrameType.Settings, 0, 0, [0x00, 0xff, 0, 0, 0, 1]), Expect.Ignored),
            // 6.1 DATA
            ["6.1 DATA on stream 0"] = new(c => F(Http2FrameType.Data, 0, 0, 1), goAway, Http2ErrorCode.ProtocolError),
            ["6.1 DATA with padding as long as the frame"] = new(c => [.. Open(c), .. F(Http2FrameType.Data, Padded, 1, 3, 0, 0)], goAway, Http2ErrorCode.ProtocolError),
            ["6.1 DATA with valid padding"] = new(c => [.. Open(c), .. F(Http2FrameType.Data, Padded | EndStream, 1, 2, (byte)'a', 0, 0)], Expect.Status),
            // 6.2 HEADERS
            ["6.2 HEADERS on stream 0"] = new(c => F(Http2FrameType.Headers, EndHeaders, 0, c.Block(Request())), goAway, Http2ErrorCode.ProtocolError),
            ["6.2 HEADERS with padding longer than its payload"] = new(c => F(Http2FrameType.Headers, EndHeaders | Padded, 1, [200, .. c.Block(Request())]), goAway, Http2ErrorCode.ProtocolError),
            ["6.2 HEADERS with padding"] = new(c => F(Http2FrameType.Headers, EndHeaders | EndStream | Padded, 1, [4, .. c.Block(Request()), 0, 0, 0, 0]), Expect.Status),
            ["6.2 HEADERS with a priority"] = new(c => F(Http2FrameType.Headers, EndHeaders | EndStream | Priority, 1, [0, 0, 0, 0, 16, .. c.Block(Request())]), Expect.Status),
            // 6.3 PRIORITY
            ["6.3 PRIORITY on stream 0"] = new(c => F(Http2FrameType.Priority, 0, 0, 0, 0, 0, 1, 16), goAway, Http2ErrorCode.ProtocolError),
            ["6.3 PRIORITY of length 4"] = new(c => [.. Open(c), .. F(Http2FrameType.Priority, 0, 1, 0, 0, 0, 3)], reset, Http2ErrorCode.FrameSizeError),
            // 6.4 RST_STREAM
            ["6.4 RST_STREAM on stream 0"] = new(c => F(Http2FrameType.RstStream, 0, 0, U32(8)), goAway, Http2ErrorCode.ProtocolError),
            ["6.4 RST_STREAM of length 3"] = new(c => [.. Open(c), .. F(Http2FrameType.RstStream, 0, 1, 0, 0, 8)], goAway, Http2ErrorCode.FrameSizeError),
            ["6.4 RST_STREAM with an unknown code is a reset"] = new(c => [.. Open(c), .. F(Http2FrameType.RstStream, 0, 1, U32(0xabcd))], Expect.Ignored),
            // 6.5 SETTINGS
            ["6.5 SETTINGS ACK with a payload"] = new(c => F(Http2FrameType.Settings, Http2FrameFlags.Ack, 0, Setting(Http2SettingId.EnablePush, 0)), goAway, Http2ErrorCode.FrameSizeError),
            ["6.5 SETTINGS on a stream"] = new(c => F(Http2FrameType.Settings, 0, 1), goAway, Http2ErrorCode.ProtocolError),
            ["6.5 SETTINGS of a length not a multiple of 6"] = new(c => F(Http2FrameType.Settings, 0, 0, 0, 3, 0, 0, 0), goAway, Http2ErrorCode.FrameSizeError),
            ["6.5.2 SETTINGS_ENABLE_PUSH of 2"] = new(c => F(Http2FrameType.Settings, 0, 0, Setting(Http2SettingId.EnablePush, 2)), goAway, Http2ErrorCode.ProtocolError),
            ["6.5.2 SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1"] = new(c => F(Http2FrameType.Settings, 0, 0, Setting(Http2SettingId.InitialWindowSize, 0x8000_0000)), goAway, Http2ErrorCode.FlowControlError),
            ["6.5.2 SETTINGS_MAX_FRAME_SIZE below 2^14"] = new(c => F(Http2FrameType.Settings, 0, 0, Setting(Http2SettingId.MaxFrameSize, 16_383)), goAway, Http2ErrorCode.ProtocolError),
            ["6.5.2 SETTINGS_MAX_FRAME_SIZE above 2^24-1"] = new(c => F(Http2FrameType.Settings, 0, 0, Setting(Http2SettingId.MaxFrameSize, 16_777_216)), goAway, Http2ErrorCode.ProtocolError),
            ["6.5.3 SETTINGS is acknowledged"] = new(c => F(Http2FrameType.Settings, 0, 0, Setting(Http2SettingId.MaxConcurrentStreams, 10)), Expect.Ignored),
            ["6.5.3 a larger SETTINGS_MAX_FRAME_SIZE is accepted"] = new(c => [.. F(Http2FrameType.Settings, 0, 0, Setting(Http2SettingId.MaxFrameSize, 100_000)), .. Get(c, 1, "/big/50000")], Expect.Status),
            // 6.7 PING
            ["6.7 PING on a stream"] = new(c => F(Http2FrameType.Ping, 0, 1, new byte[8]), goAway, Http2ErrorCode.ProtocolError),
            ["6.7 PING of length 7"] = new(c => F(Http2FrameType.Ping, 0, 0, new byte[7]), goAway, Http2ErrorCode.FrameSizeError),
            ["6.7 a PING ACK is not answered"] = new(c => F(Http2FrameType.Ping, Http2FrameFlags.Ack, 0, new byte[8]), Expect.Ignored),
            // 6.8 GOAWAY
            ["6.8 GOAWAY on a stream"] = new(c => F(Http2FrameType.GoAway, 0, 1, [.. U32(0), .. U32(0)]), goAway, Http2ErrorCode.ProtocolError),
            ["6.8 GOAWAY shorter than 8"] = new(c => F(Http2FrameType.GoAway, 0, 0, 0, 0, 0, 0), goAway, Http2ErrorCode.FrameSizeError),
            ["6.8 a client's GOAWAY lets open streams finish"] = new(c => [.. Owed(c), .. F(Http2FrameType.GoAway, 0, 0, [.. U32(0), .. U32(0)])], Expect.Status),
            // 6.9 WINDOW_UPDATE
            ["6.9 WINDOW_UPDATE of 0 for the connection"] = new(c => F(Http2FrameType.WindowUpdate, 0, 0, U32(0)), goAway, Http2ErrorCode.ProtocolError),
            ["6.9 WINDOW_UPDATE of 0 for a stream"] = new(c => [.. Open(c), .. F(Http2FrameType.WindowUpdate, 0, 1, U32(0))], reset, Http2ErrorCode.ProtocolError),
            ["6.9 WINDOW_UPDATE of length 3"] = new(c => F(Http2FrameType.WindowUpdate, 0, 0, 0, 0, 1), goAway, Http2ErrorCode.FrameSizeError),
            ["6.9.1 the connection window past 2^31-1"] = new(c => F(Http2FrameType.WindowUpdate, 0, 0, U32(0x7fff_ffff)), goAway, Http2ErrorCode.FlowControlError),
            ["6.9.1 a stream window past 2^31-1"] = new(c => [.. Open(c), .. F(Http2FrameType.WindowUpdate, 0, 1, U32(0x7fff_ffff))], reset, Http2ErrorCode.FlowControlError),
            ["6.9.1 a large upload gets its credit back"] = new(c => [.. Open(c), .. Enumerable.Range(0, 80).SelectMany(_ => F(Http2FrameType.Data, 0, 1, new byte[16_384])), .. F(Http2FrameType.Data, EndStream, 1, 1)], Expect.Status),
            ["6.9.2 SETTINGS_INITIAL_WINDOW_SIZE taking a window past 2^31-1"] = new(c => [.. Owed(c), .. F(Http2FrameType.WindowUpdate, 0, 1, U32(0x7fff_ffff - 65_535 - 13)), .. F(Http2FrameType.Settings, 0, 0, Setting(Http2SettingId.InitialWindowSize, 65_535 + 100))], goAway, Http2ErrorCode.FlowControlError),
            ["6.9.2 SETTINGS_INITIAL_WINDOW_SIZE of 0 holds DATA until WINDOW_UPDATE"] = new(c => [.. F(Http2FrameType.Settings, 0, 0, Setting(Http2SettingId.InitialWindowSize, 0)), .. Get(c, 1, "/big/10"), .. F(Http2FrameType.WindowUpdate, 0, 1, U32(10))], Expect.Status),
            // 6.10 CONTINUATION
            ["6.10 CONTINUATION without HEADERS"] = new(c => [.. Get(c, 1), .. F(Http2FrameType.Continuation, EndHeaders, 1, c.Block(("x", "1")))], goAway, Http2ErrorCode.ProtocolError),
            ["6.10 CONTINUATION on another stream"] = new(c => [.. F(Http2FrameType.Headers, 0, 1, c.Block(Request())), .. F(Http2FrameType.Continuation, EndHeaders, 3)], goAway, Http2ErrorCode.ProtocolError),
            ["6.10 CONTINUATION on stream 0"] = new(c => [.. F(Http2FrameType.Headers, 0, 1, c.Block(Request())), .. F(Http2FrameType.Continuation, EndHeaders, 0)], goAway, Http2ErrorCode.ProtocolError),
            ["6.10 DATA between HEADERS and CONTINUATION"] = new(c => [.. F(Http2FrameType.Headers, 0, 1, c.Block(Request())), .. F(Http2FrameType.Data, 0, 1, 1)], goAway, Http2ErrorCode.ProtocolError),
            // 8.1 HTTP message framing
            ["8.1.1 DATA shorter than content-length"] = new(c => [.. F(Http2FrameType.Headers, EndHeaders, 1, c.Block([.. Request("/echo", "POST"), ("content-length", "5")])), .. F(Http2FrameType.Data, EndStream, 1, 1, 2)], reset, Http2ErrorCode.ProtocolError),
            ["8.1.1 DATA longer than content-length"] = new(c => [.. F(Http2FrameType.Headers, EndHeaders, 1, c.Block([.. Request("/echo", "POST"), ("content-length", "1")])), .. F(Http2FrameType.Data, EndStream, 1, 1, 2)], reset, Http2ErrorCode.ProtocolError),
            ["8.1.1 DATA matching content-length"] = new(c => [.. F(Http2FrameType.Headers, EndHeaders, 1, c.Block([.. Request("/echo", "POST"), ("content-length", "2")])), .. F(Http2FrameType.Data, EndStream, 1, 1, 2)], Expect.Status),
            ["8.1 a second HEADERS without END_STREAM"] = new(c => [.. Open(c), .. F(Http2FrameType.Headers, EndHeaders, 1, c.Block(("x-trailer", "1")))], reset, Http2ErrorCode.ProtocolError),
            ["8.1 trailers with a pseudo-header field"] = new(c => [.. Open(c), .. F(Http2FrameType.Headers, EndHeaders | EndStream, 1, c.Block((":path", "/x")))], reset, Http2ErrorCode.ProtocolError),
            ["8.1 trailers end the request"] = new(c => [.. Open(c), .. F(Http2FrameType.Headers, EndHeaders | EndStream, 1, c.Block(("x-trailer", "1")))], Expect.Status),
            // 8.2 HTTP fields
            ["8.2 an uppercase field name"] = new(c => Malformed(c, [.. Request(), ("X-Upper", "1")]), reset, Http2ErrorCode.ProtocolError),
            ["8.2.1 a field name with a space"] = new(c => Malformed(c, [.. Request(), ("x y", "1")]), reset, Http2ErrorCode.ProtocolError),
            ["8.2.1 a field value with CR LF"] = new(c => Malformed(c, [.. Request(), ("x-a", "1\r\nx-b: 2")]), reset, Http2ErrorCode.ProtocolError),
            ["8.2.1 a field value with NUL"] = new(c => Malformed(c, [.. Request(), ("x-a", "1\0")]), reset, Http2ErrorCode.ProtocolError),
            ["8.2.1 a field value with leading whitespace"] = new(c => Malformed(c, [.. Request(), ("x-a", " 1")]), reset, Http2ErrorCode.ProtocolError),
            ["8.2.1 an empty field name"] = new(c => Malformed(c, [.. Request(), ("", "1")]), reset, Http2ErrorCode.ProtocolError),
            ["8.2.2 connection"] = new(c => Malformed(c, [.. Request(), ("connection", "keep-alive")]), reset, Http2ErrorCode.ProtocolError),
            ["8.2.2 keep-alive"] = new(c => Malformed(c, [.. Request(), ("keep-alive", "5")]), reset, Http2ErrorCode.ProtocolError),
            ["8.2.2 proxy-connection"] = new(c => Malformed(c, [.. Request(), ("proxy-connection", "close")]), reset, Http2ErrorCode.ProtocolError),
            ["8.2.2 transfer-encoding"] = new(c => Malformed(c, [.. Request(), ("transfer-encoding", "chunked")]), reset, Http2ErrorCode.ProtocolError),
            ["8.2.2 upgrade"] = new(c => Malformed(c, [.. Request(), ("upgrade", "websocket")]), reset, Http2ErrorCode.ProtocolError),
            ["8.2.2 te other than trailers"] = new(c => Malformed(c, [.. Request(), ("te", "gzip")]), reset, Http2ErrorCode.ProtocolError),
            ["8.2.2 te: trailers is allowed"] = new(c => Malformed(c, [.. Request(), ("te", "trailers")]), Expect.Status),
            ["8.2.3 cookies in several fields"] = new(c => Malformed(c, [.. Request(), ("cookie", "a=1"), ("cookie", "b=2")]), Expect.Status),
            // 8.3 HTTP control data
            ["8.3 a pseudo-header field after a regular one"] = new(c => Malformed(c, (":method", "GET"), (":scheme", "http"), ("x-a", "1"), (":path", "/hello")), reset, Http2ErrorCode.ProtocolError),
            ["8.3 an unknown pseudo-header field"] = new(c => Malformed(c, [.. Request(), (":unknown", "1")]), reset, Http2ErrorCode.ProtocolError),
            ["8.3 a response pseudo-header field in a request"] = new(c => Malformed(c, [.. Request(), (":status", "200")]), reset, Http2ErrorCode.ProtocolError),
            ["8.3.1 no :method"] = new(c => Malformed(c, (":scheme", "http"), (":path", "/hello")), reset, Http2ErrorCode.ProtocolError),
            ["8.3.1 no :scheme"] = new(c => Malformed(c, (":method", "GET"), (":path", "/hello")), reset, Http2ErrorCode.ProtocolError),
            ["8.3.1 no :path"] = new(c => Malformed(c, (":method", "GET"), (":scheme", "http")), reset, Http2ErrorCode.ProtocolError),
            ["8.3.1 an empty :path"] = new(c => Malformed(c, (":method", "GET"), (":scheme", "http"), (":path", "")), reset, Http2ErrorCode.ProtocolError),
            ["8.3.1 :path twice"] = new(c => Malformed(c, [.. Request(), (":path", "/other")]), reset, Http2ErrorCode.ProtocolError),
            ["8.3.1 :method twice"] = new(c => Malformed(c, [(":method", "GET"), .. Request()]), reset, Http2ErrorCode.ProtocolError),
            ["8.3.1 no :authority is allowed"] = new(c => Malformed(c, (":method", "GET"), (":scheme", "http"), (":path", "/hello")), Expect.Status),
            ["8.3.1 HEAD gets no body"] = new(c => Malformed(c, Request("/hello", "HEAD")), Expect.Status),
            ["8.5 CONNECT with :authority only"] = new(c => Malformed(c, (":method", "CONNECT"), (":authority", "example.com:443")), Expect.Status, Status: 404),
            ["8.5 CONNECT with :path"] = new(c => Malformed(c, (":method", "CONNECT"), (":authority", "example.com:443"), (":path", "/")), reset, Http2ErrorCode.ProtocolError),
            // 8.4 Server push
            ["8.4 PUSH_PROMISE from a client"] = new(c => F(Http2FrameType.PushPromise, EndHeaders, 1, [.. U32(2), .. c.Block(Request())]), goAway, Http2ErrorCode.ProtocolError),
            // RFC 7541 HPACK
            ["7541 2.3.3 index 0"] = new(c => F(Http2FrameType.Headers, EndHeaders | EndStream, 1, 0x80), goAway, Http2ErrorCode.CompressionError),
            ["7541 2.3.3 an index past the tables"] = new(c => F(Http2FrameType.Headers, EndHeaders | EndStream, 1, 0xff, 0x40), goAway, Http2ErrorCode.CompressionError),
            ["7541 4.2 a table size update above SETTINGS_HEADER_TABLE_SIZE"] = new(c => F(Http2FrameType.Headers, EndHeaders | EndStream, 1, [0x3f, 0xe2, 0x1f, .. c.Block(Request())]), goAway, Http2ErrorCode.CompressionError),
            ["7541 4.2 a table size update after a field"] = new(c => F(Http2FrameType.Headers, EndHeaders | EndStream, 1, [.. c.Block(Request()), 0x20]), goAway, Http2ErrorCode.CompressionError),
            ["7541 4.2 a table size update to 0 first is allowed"] = new(c => F(Http2FrameType.Headers, EndHeaders | EndStream, 1, [0x20, .. new HpackEncoderBlock().Request()]), Expect.Status),
            ["7541 5.2 Huffman padding that is not all ones"] = new(c => F(Http2FrameType.Headers, EndHeaders | EndStream, 1, 0x82, 0x84, 0x86, 0x41, 0x81, 0x00), goAway, Http2ErrorCode.CompressionError),
            ["7541 5.2 a string longer than its block"] = new(c => F(Http2FrameType.Headers, EndHeaders | EndStream, 1, 0x82, 0x84, 0x86, 0x41, 0x7f), goAway, Http2ErrorCode.CompressionError),
            ["7541 6.1 the dynamic table across requests"] = new(c => [.. Get(c, 1, extra: ("x-repeat", "same")), .. Get(c, 3, extra: ("x-repeat", "same"))], Expect.Status, Stream: 3),
        };
        return cases;
    }

    // A request block from a fresh encoder, for cases that put bytes in front of a block and must not disturb the client's encoder state.
    private sealed class HpackEncoderBlock
    {
        public byte[] Request() => HpackTesting.Encode(new HpackEncoder(), [(":method", "GET"), (":scheme", "http"), (":path", "/hello")], HpackIndexing.None);
    }
}
