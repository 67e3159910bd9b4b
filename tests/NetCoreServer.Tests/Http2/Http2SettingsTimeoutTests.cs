using System;
using System.Threading.Tasks;
using Microsoft.Extensions.Time.Testing;
using NetCoreServer.Protocols.Http2;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>
/// RFC 9113 §6.5.3: a peer that does not acknowledge this side's SETTINGS within <see cref="HttpOptions.Http2SettingsTimeout"/>
/// gets the connection error SETTINGS_TIMEOUT; one that does is left alone. On a fake clock.
/// </summary>
[TestFixture]
public sealed class Http2SettingsTimeoutTests
{
    private FakeTimeProvider _clock = null!;
    private Http2TestServer _server = null!;

    [SetUp]
    public void StartServer()
    {
        _clock = new FakeTimeProvider();
        _server = new Http2TestServer { OptionTimeProvider = _clock };
        _server.Start();
    }

    [TearDown]
    public void StopServer() => _server.Dispose();

    [Test]
    public void DefaultIsTenSeconds() => Assert.That(new HttpOptions().Http2SettingsTimeout, Is.EqualTo(TimeSpan.FromSeconds(10)));

    [Test]
    public void TimeoutMustBePositiveOrInfinite()
    {
        Assert.That(() => new HttpOptions().Http2SettingsTimeout = TimeSpan.Zero, Throws.TypeOf<ArgumentOutOfRangeException>());
        Assert.That(() => new HttpOptions().Http2SettingsTimeout = System.Threading.Timeout.InfiniteTimeSpan, Throws.Nothing);
    }

    [Test]
    public async Task ClientThatNeverAcknowledgesTheSettingsGetsGoAwaySettingsTimeout()
    {
        using var client = await Http2RawClient.ConnectAsync(_server.Endpoint, handshake: false);
        var settings = await client.ReadFrame();
        Assert.That(settings.Type, Is.EqualTo(Http2FrameType.Settings), "the server's SETTINGS first");

        _clock.Advance(TimeSpan.FromSeconds(9));
        await client.Send(b => Http2FrameWriter.WritePing(b, "12345678"u8, ack: false));
        var early = await client.ReadUntil(f => f.Type is Http2FrameType.Ping or Http2FrameType.GoAway);
        Assert.That(early.Type, Is.EqualTo(Http2FrameType.Ping), "still open before the timeout: " + early);

        var goAway = client.GoAway();
        _clock.Advance(TimeSpan.FromSeconds(2));
        Assert.That(await goAway, Is.EqualTo(Http2ErrorCode.SettingsTimeout));
        await client.Closed();
    }

    [Test]
    public async Task ClientThatAcknowledgesTheSettingsIsNotTimedOut()
    {
        using var client = await Http2RawClient.ConnectAsync(_server.Endpoint);
        await client.Get(1, "/hello");
        Assert.That((await client.Response(1)).Status, Is.EqualTo(200));

        _clock.Advance(TimeSpan.FromSeconds(11));
        await client.Send(b => Http2FrameWriter.WritePing(b, "12345678"u8, ack: false));
        var after = await client.ReadUntil(f => f.Type is Http2FrameType.Ping or Http2FrameType.GoAway);
        Assert.That(after.Type, Is.EqualTo(Http2FrameType.Ping), "no GOAWAY once the SETTINGS were acknowledged: " + after);
        await client.Get(3, "/hello");
        Assert.That((await client.Response(3)).Status, Is.EqualTo(200));
    }
}
