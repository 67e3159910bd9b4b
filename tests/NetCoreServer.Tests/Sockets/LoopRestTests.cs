using NetCoreServer.Transports;
using NUnit.Framework;

namespace NetCoreServer.Tests.Sockets;

/// <summary>
/// How an event loop waits between passes (<see cref="LoopRest"/>): after work it looks again, then yields its core
/// once, then sleeps. The yield is what saves the wake-ups under a busy peer on the same machine (docs/design/
/// event-loops.md, "Yielding before sleeping"); without it these fail.
/// </summary>
[TestFixture]
public sealed class LoopRestTests
{
    [Test]
    public void AStartedLoopSleepsUntilAnEdgeComes()
    {
        var rest = new LoopRest();

        Assert.That(rest.NextTimeout(deferredWaiting: false, out var yieldFirst), Is.EqualTo(-1));
        Assert.That(yieldFirst, Is.False);
    }

    [Test]
    public void AfterAPassWithEventsTheLoopLooksAgainWithoutWaiting()
    {
        var rest = new LoopRest();
        rest.Returned(timeout: -1, events: 3, deferredWaiting: false);

        Assert.That(rest.NextTimeout(deferredWaiting: false, out var yieldFirst), Is.EqualTo(0));
        Assert.That(yieldFirst, Is.False, "work was found: nothing to give away yet");
    }

    [Test]
    public void WhenTheLookAfterWorkFindsNothingTheLoopYieldsOnceThenSleeps()
    {
        var rest = new LoopRest();
        rest.Returned(timeout: -1, events: 1, deferredWaiting: false);
        rest.Returned(timeout: 0, events: 0, deferredWaiting: false);

        Assert.That(rest.NextTimeout(deferredWaiting: false, out var yieldFirst), Is.EqualTo(-1));
        Assert.That(yieldFirst, Is.True);
    }

    [Test]
    public void ALookThatFindsWorkAfterTheYieldStartsOver()
    {
        var rest = new LoopRest();
        rest.Returned(timeout: -1, events: 1, deferredWaiting: false);
        rest.Returned(timeout: 0, events: 0, deferredWaiting: false);
        rest.Returned(timeout: -1, events: 2, deferredWaiting: false);

        Assert.That(rest.NextTimeout(deferredWaiting: false, out var yieldFirst), Is.EqualTo(0));
        Assert.That(yieldFirst, Is.False);
    }

    [Test]
    public void ConnectionsWaitingForTheirNextTurnAreWorkTheLoopNeverSleepsOn()
    {
        var rest = new LoopRest();
        rest.Returned(timeout: 0, events: 0, deferredWaiting: false);

        Assert.That(rest.NextTimeout(deferredWaiting: true, out var yieldFirst), Is.EqualTo(0));
        Assert.That(yieldFirst, Is.False, "the waiting connections run now");

        rest.Returned(timeout: 0, events: 0, deferredWaiting: true);
        Assert.That(rest.NextTimeout(deferredWaiting: false, out yieldFirst), Is.EqualTo(0), "they were work: look again first");
        Assert.That(yieldFirst, Is.False);
    }
}
