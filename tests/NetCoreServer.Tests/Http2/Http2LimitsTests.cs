using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Microsoft.Extensions.Time.Testing;
using NetCoreServer.Protocols.Http2;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// The limits of an HTTP/2 connection, each refused with the RFC's code, and each flood checked for what it must not
/// do: the connection is ended (GOAWAY ENHANCE_YOUR_CALM) while another client on the same server is still served.
/// </summary>
[TestFixture]
public sealed class Http2LimitsTests : Http2ServerFixture
{
    // Another client on the same server gets its answer: a flood costs the flooder, not the others.
    private async Task OthersAreStillServed()
    {
        using var other = await Connect();
        await other.Get(1, "/hello");
        Assert.That((await other.Response(1)).Text, Is.EqualTo("Hello, World!"), "another connection is still served");
    }

    [Test]
    public async Task StreamsPastTheConcurrencyLimitAreRefusedAndTheOthersGoOn()
    {
        Server.Http.Http2MaxConcurrentStreams = 2;
        using var client = await Connect();
        Assert.That(client.ServerSettings.MaxConcurrentStreams, Is.EqualTo(2));
        await client.SendHeaders(1, endStream: false, (":method", "POST"), (":scheme", "http"), (":path", "/echo"));
        await client.SendHeaders(3, endStream: false, (":method", "POST"), (":scheme", "http"), (":path", "/echo"));
        await client.SendHeaders(5, endStream: false, (":method", "POST"), (":scheme", "http"), (":path", "/echo"));
        Assert.That(await client.ResetOf(5), Is.EqualTo(Http2ErrorCode.RefusedStream));

        await client.SendData(1, "one"u8.ToArray(), endStream: true);
        await client.SendData(3, "three"u8.ToArray(), endStream: true);
        Assert.That((await client.Response(1)).Text, Is.EqualTo("one"));
        Assert.That((await client.Response(3)).Text, Is.EqualTo("three"));
        await client.Get(7, "/hello");
        Assert.That((await client.Response(7)).Status, Is.EqualTo(200), "a stream closed frees its place");
    }

    [Test]
    public async Task HeaderListPastTheLimitGets431AndTheConnectionGoesOn()
    {
        Server.Http.MaxHeadSize = 1024;
        using var client = await Connect();
        await client.Get(1, "/hello", "GET", ("x-big", new string('v', 2000)));
        Assert.That((await client.Response(1)).Status, Is.EqualTo(431));
        await client.Get(3, "/hello");
        Assert.That((await client.Response(3)).Status, Is.EqualTo(200));
        Assert.That(Server.Seen, Is.EqualTo(new[] { "GET /hello" }), "the refused request never reached the hooks");
    }

    [Test]
    public async Task BodyPastTheLimitGets413AndTheClientIsAskedToStop()
    {
        Server.Http.MaxBodySize = 100;
        using var client = await Connect();
        await client.SendHeaders(1, endStream: false, (":method", "POST"), (":scheme", "http"), (":path", "/echo"));
        await client.SendData(1, new byte[101], endStream: false);
        Assert.That((await client.Response(1)).Status, Is.EqualTo(413));
        Assert.That(await client.ResetOf(1), Is.EqualTo(Http2ErrorCode.NoError), "RFC 9113 8.1: stop sending, without error");
        await client.SendData(1, new byte[10], endStream: true);
        await client.Get(3, "/hello");
        Assert.That((await client.Response(3)).Status, Is.EqualTo(200), "DATA still in flight on the refused stream is ignored");
    }

    [Test]
    public async Task FrameLargerThanTheAdvertisedSizeIsAConnectionError()
    {
        using var client = await Connect();
        await client.SendHeaders(1, endStream: false, (":method", "POST"), (":scheme", "http"), (":path", "/echo"));
        await client.Send(b => Http2FrameWriter.WriteData(b, 1, new byte[Http2Settings.MinMaxFrameSize + 1], endStream: true));
        Assert.That(await client.GoAway(), Is.EqualTo(Http2ErrorCode.FrameSizeError));
        await client.Closed();
    }

    [Test]
    public async Task RapidResetGetsEnhanceYourCalm()
    {
        using var client = await Connect();
        await client.SendRaw(Http2Floods.Build(Http2Attack.RapidReset));

        Assert.That(await client.GoAway(), Is.EqualTo(Http2ErrorCode.EnhanceYourCalm));
        await client.Closed();
        Assert.That(Server.Seen, Is.Empty, "no reset request reached the hooks");
        await OthersAreStillServed();
    }

    [Test]
    public async Task ContinuationFloodStopsAtTheHeaderListBound()
    {
        using var client = await Connect();
        var sending = client.SendRaw(Http2Floods.Build(Http2Attack.ContinuationFlood));

        Assert.That(await client.GoAway(), Is.EqualTo(Http2ErrorCode.EnhanceYourCalm));
        await client.Closed();
        await OthersAreStillServed();
        try
        {
            await sending;
        }
        catch (System.Net.Sockets.SocketException)
        {
            // The server closed while the flood was still going out.
        }
    }

    [TestCase(Http2Attack.SettingsFlood)]
    [TestCase(Http2Attack.PingFlood)]
    [TestCase(Http2Attack.WindowUpdateFlood)]
    [TestCase(Http2Attack.EmptyDataFlood)]
    public async Task ControlFrameFloodGetsEnhanceYourCalm(Http2Attack flood)
    {
        using var client = await Connect();
        await client.SendRaw(Http2Floods.Build(flood));

        Assert.That(await client.GoAway(), Is.EqualTo(Http2ErrorCode.EnhanceYourCalm), flood.ToString());
        await client.Closed();
        await OthersAreStillServed();
    }

    [Test]
    public async Task ConnectionQuietForTheKeepAliveTimeoutGetsGoAwayOnAFakeClock()
    {
        var clock = new FakeTimeProvider();
        using var server = new Http2TestServer { OptionTimeProvider = clock };
        server.Http.KeepAliveTimeout = TimeSpan.FromSeconds(30);
        server.Start();
        using var client = await Http2RawClient.ConnectAsync(server.Endpoint);
        await client.Get(1, "/hello");
        Assert.That((await client.Response(1)).Status, Is.EqualTo(200));
        // A PING is no activity: a client cannot keep a connection by pinging alone.
        await client.Send(b => Http2FrameWriter.WritePing(b, "stillhere"u8[..8], ack: false));
        await client.ReadUntil(f => f.Type == Http2FrameType.Ping);

        clock.Advance(TimeSpan.FromSeconds(29));
        await client.Send(b => Http2FrameWriter.WritePing(b, "12345678"u8, ack: false));
        var early = await client.ReadFrame();
        Assert.That(early.Type, Is.EqualTo(Http2FrameType.Ping), "still open before the timeout: " + early);

        var goAway = client.GoAway();
        clock.Advance(TimeSpan.FromSeconds(2));
        Assert.That(await goAway, Is.EqualTo(Http2ErrorCode.NoError));
        await client.Closed();
    }

    [Test]
    public async Task PeerThatNeverOpensItsWindowIsClosedAfterTheKeepAliveTimeout()
    {
        Server.Http.KeepAliveTimeout = TimeSpan.FromMilliseconds(300);
        using var client = await Connect();
        await client.Get(1, "/big/200000");
        var skipped = new List<Http2ReceivedFrame>();
        Assert.That(await client.ReadUntil(f => f.Type == Http2FrameType.GoAway, skipped).ContinueWith(t => t.Result.ErrorCode), Is.EqualTo(Http2ErrorCode.NoError));
        Assert.That(skipped.Where(f => f.Type == Http2FrameType.Data).Sum(f => f.Payload.Length), Is.EqualTo(Http2Settings.DefaultInitialWindowSize),
            "the window's worth was sent, nothing more, and the stalled connection was closed");
        await client.Closed();
    }
}
