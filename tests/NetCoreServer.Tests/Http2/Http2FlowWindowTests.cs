using NetCoreServer.Protocols.Http2;
using NUnit.Framework;

namespace NetCoreServer.Tests.Http2;

/// <summary>Flow-control windows (RFC 9113 §6.9): overflow past 2^31-1, DATA past the window, negative windows after a lowered initial size, credit returned in halves.</summary>
[TestFixture]
public sealed class Http2FlowWindowTests
{
    [Test]
    public void AWindowMayReachButNotPass2To31Minus1()
    {
        var window = new Http2FlowWindow(65_535);
        Assert.That(window.TryIncrease(int.MaxValue - 65_535), Is.True);
        Assert.That(window.Available, Is.EqualTo(int.MaxValue));
        Assert.That(window.TryIncrease(1), Is.False, "one more is a FLOW_CONTROL_ERROR");
        Assert.That(window.Available, Is.EqualTo(int.MaxValue), "and changes nothing");
    }

    [Test]
    public void DataPastTheWindowIsRefused()
    {
        var window = new Http2FlowWindow(100);
        Assert.That(window.TryConsume(60), Is.True);
        Assert.That(window.TryConsume(41), Is.False);
        Assert.That(window.TryConsume(40), Is.True);
        Assert.That(window.Available, Is.EqualTo(0));
    }

    [Test]
    public void ALoweredInitialSizeCanLeaveTheWindowNegative()
    {
        var window = new Http2FlowWindow(65_535);
        Assert.That(window.TryConsume(1000), Is.True);
        Assert.That(window.TryAdjust(100 - 65_535), Is.True, "SETTINGS_INITIAL_WINDOW_SIZE from 65,535 to 100");
        Assert.That(window.Available, Is.EqualTo(-900));
        Assert.That(window.TryConsume(1), Is.False, "nothing may be sent until the window is positive again");
        Assert.That(window.TryIncrease(1000), Is.True);
        Assert.That(window.Available, Is.EqualTo(100));
    }

    [Test]
    public void ARaisedInitialSizePastTheLimitIsRefused()
    {
        var window = new Http2FlowWindow(65_535);
        Assert.That(window.TryIncrease(1_000_000), Is.True);
        Assert.That(window.TryAdjust(int.MaxValue - 65_535), Is.False, "a connection FLOW_CONTROL_ERROR (§6.9.2)");
        Assert.That(window.Available, Is.EqualTo(1_065_535));
    }

    [Test]
    public void CreditGoesBackOnceHalfTheTargetIsConsumed()
    {
        var window = new Http2FlowWindow(65_535);
        Assert.That(window.TryConsume(50_000), Is.True);
        Assert.That(window.Release(10_000, 65_535), Is.EqualTo(0), "not yet half");
        Assert.That(window.Release(30_000, 65_535), Is.EqualTo(40_000), "one WINDOW_UPDATE for both reads");
        Assert.That(window.Available, Is.EqualTo(55_535));
        Assert.That(window.Release(10_000, 65_535), Is.EqualTo(0));
    }
}
