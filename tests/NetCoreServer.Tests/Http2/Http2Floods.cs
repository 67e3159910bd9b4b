using System;
using System.Collections.Generic;
using System.Linq;
using NetCoreServer.Protocols.Http2;

namespace NetCoreServer.Tests.Http2;

/// <summary>The hostile cases that a client sends after its handshake, each as one byte array.</summary>
public enum Http2Attack
{
    /// <summary>Streams opened and cancelled in a loop (CVE-2023-44487).</summary>
    RapidReset,

    /// <summary>A field block that never ends: CONTINUATION after CONTINUATION (CVE-2024-27316).</summary>
    ContinuationFlood,

    /// <summary>SETTINGS frames, each owed an ACK.</summary>
    SettingsFlood,

    /// <summary>PING frames, each owed an ACK.</summary>
    PingFlood,

    /// <summary>WINDOW_UPDATE frames of one byte each.</summary>
    WindowUpdateFlood,

    /// <summary>DATA frames that carry nothing, on one open stream.</summary>
    EmptyDataFlood,

    /// <summary>Requests for large answers, and never a WINDOW_UPDATE: the server's answers stall at the window.</summary>
    WindowNeverOpened,

    /// <summary>Ten times the concurrent streams allowed, each opened and left waiting for its body.</summary>
    StreamOverflow,
}

/// <summary>
/// The frames of each <see cref="Http2Attack"/>, built once with a fresh HPACK encoder: valid on any connection fresh from
/// its handshake, so that every attacker of a test sends the same array (and the test's own memory does not grow with
/// the number of attackers).
/// </summary>
internal static class Http2Floods
{
    /// <summary>How far past each budget a flood goes.</summary>
    private const int Past = 50;

    /// <summary>The size of a CONTINUATION flood: far past the 32 KiB header list bound.</summary>
    public const int ContinuationBytes = 2 * 1024 * 1024;

    /// <summary>The body size each <see cref="Http2Attack.WindowNeverOpened"/> stream asks for.</summary>
    public const int StalledBody = 256 * 1024;

    /// <summary>The streams of one <see cref="Http2Attack.WindowNeverOpened"/> attacker.</summary>
    public const int StalledStreams = 8;

    /// <summary>How many times the concurrent streams allowed a <see cref="Http2Attack.StreamOverflow"/> attacker opens.</summary>
    public const int OverflowFactor = 10;

    /// <summary>The frames of <paramref name="attack"/>; <paramref name="maxConcurrentStreams"/> sizes the stream overflow.</summary>
    public static byte[] Build(Http2Attack attack, int maxConcurrentStreams = 100) => attack switch
    {
        Http2Attack.RapidReset => RapidReset(Http2Limits.ResetBurst + Past),
        Http2Attack.ContinuationFlood => Continuation(ContinuationBytes),
        Http2Attack.SettingsFlood => Repeat(Http2Limits.ControlBurst + Past, _ => Http2RawClient.Frame(b => Http2FrameWriter.WriteSettings(b, []))),
        Http2Attack.PingFlood => Repeat(Http2Limits.ControlBurst + Past, _ => Http2RawClient.Frame(b => Http2FrameWriter.WritePing(b, "floodpng"u8, ack: false))),
        Http2Attack.WindowUpdateFlood => Repeat(Http2Limits.WindowUpdateBurst + 5000, _ => Http2RawClient.Frame(b => Http2FrameWriter.WriteWindowUpdate(b, 0, 1))),
        Http2Attack.EmptyDataFlood => [
            .. Headers(1, Block(("POST", "/echo")), endStream: false),
            .. Repeat(Http2Limits.EmptyDataBurst + Past, _ => Http2RawClient.Frame(b => Http2FrameWriter.WriteData(b, 1, default, endStream: false)))],
        Http2Attack.WindowNeverOpened => Repeat(StalledStreams, i => Headers(2 * i + 1, Block(("GET", "/big/" + StalledBody)), endStream: true)),
        Http2Attack.StreamOverflow => OpenStreams(OverflowFactor * maxConcurrentStreams),
        _ => throw new ArgumentOutOfRangeException(nameof(attack)),
    };

    /// <summary>Streams 1, 3, 5... each opened by a GET and reset by the client (CANCEL) at once.</summary>
    public static byte[] RapidReset(int streams)
    {
        var block = Block(("GET", "/hello"));
        return Repeat(streams, i => [
            .. Headers(2 * i + 1, block, endStream: false),
            .. Http2RawClient.Frame(b => Http2FrameWriter.WriteRstStream(b, 2 * i + 1, Http2ErrorCode.Cancel))]);
    }

    /// <summary>A GET's HEADERS on stream 1 without END_HEADERS, then CONTINUATION frames of 16 KiB, never the last one.</summary>
    public static byte[] Continuation(int bytes)
    {
        var block = Block(("GET", "/hello"));
        var fragment = new byte[Http2Settings.MinMaxFrameSize];
        return [
            .. Http2RawClient.Frame(b => Http2FrameWriter.WriteHeader(b, block.Length, Http2FrameType.Headers, 0, 1) + Copy(block, b, 9)),
            .. Repeat(bytes / fragment.Length, _ => Http2RawClient.Frame(b => Http2FrameWriter.WriteHeader(b, fragment.Length, Http2FrameType.Continuation, 0, 1) + fragment.Length))];
    }

    /// <summary>POSTs on streams 1, 3, 5... whose bodies never come: each stream stays open.</summary>
    public static byte[] OpenStreams(int streams)
    {
        var block = Block(("POST", "/echo"));
        return Repeat(streams, i => Headers(2 * i + 1, block, endStream: false));
    }

    private static byte[] Block((string Method, string Path) request)
        => HpackTesting.Encode(new HpackEncoder(), [(":method", request.Method), (":scheme", "http"), (":path", request.Path)]);

    private static byte[] Headers(int stream, byte[] block, bool endStream)
        => Http2RawClient.Frame(b => Http2FrameWriter.WriteHeaders(b, stream, block, endStream, Http2Settings.MinMaxFrameSize));

    private static byte[] Repeat(int count, Func<int, byte[]> frame) => [.. Enumerable.Range(0, count).SelectMany(frame)];

    private static int Copy(byte[] source, byte[] destination, int at)
    {
        source.CopyTo(destination, at);
        return source.Length;
    }
}
