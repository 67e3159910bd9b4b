using System;
using System.Linq;
using NetCoreServer.Engine;
using NUnit.Framework;

namespace NetCoreServer.Tests.Engine;

/// <summary>The engine's packed lifecycle int: every value of every enum it packs fits its bits, and one that does not is refused.</summary>
[TestFixture]
public sealed class LifecycleFlagsTests
{
    private sealed class TestLock : SessionLock
    {
    }

    [Test]
    public void EveryStateReasonPhaseAndHoldCountReadsBackWithoutDisturbingTheOthers()
    {
        var sessionLock = new TestLock();
        var flags = new LifecycleFlags(ready: true);
        Assert.That(flags.Holds, Is.EqualTo(1), "the constructor's hold");
        using var held = sessionLock.Enter();
        flags.Set(LifecycleFlag.TransportDisposed, true, held);
        // The highest one-bit flag, next to the phase: the send loop's role, read per session per multicast message.
        flags.Set(LifecycleFlag.SenderRunning, true, held);
        foreach (var state in Enum.GetValues<SessionState>())
        {
            foreach (var reason in Enum.GetValues<DisconnectReason>())
            {
                foreach (var phase in Enum.GetValues<DisconnectingPhase>())
                {
                    for (var holds = 0; holds <= 2; holds++)
                    {
                        flags.SetState(state, held);
                        flags.SetReason(reason, held);
                        flags.SetPhase(phase, held);
                        flags.SetHolds(holds, held);
                        Assert.That((flags.State, flags.Reason, flags.Phase, flags.Holds), Is.EqualTo((state, reason, phase, holds)));
                    }
                }
            }
        }
        var flagsSet = Enum.GetValues<LifecycleFlag>().Where(flags.Has).ToArray();
        Assert.That(flagsSet, Is.EqualTo(new[] { LifecycleFlag.Ready, LifecycleFlag.TransportDisposed, LifecycleFlag.SenderRunning }), "the one-bit flags are untouched by the packed values");
    }

    [Test]
    public void TheOneBitFlagsStayBelowThePackedValues()
    {
        var highest = Enum.GetValues<LifecycleFlag>().Max(flag => (int)flag);
        Assert.That(highest, Is.LessThan(1 << LifecycleFlags.PhaseShift));
        Assert.That(LifecycleFlags.ReasonShift + 5, Is.LessThanOrEqualTo(LifecycleFlags.HoldsShift), "the reason's five bits end before the holds");
        Assert.That(LifecycleFlags.HoldsShift + 2, Is.LessThanOrEqualTo(31), "the holds' two bits end inside the int");
    }

    [Test]
    public void AValueThatDoesNotFitItsBitsIsRefusedInEveryBuild()
    {
        var sessionLock = new TestLock();
        var flags = new LifecycleFlags(ready: false);
        using var held = sessionLock.Enter();
        try
        {
            flags.SetReason((DisconnectReason)(LifecycleFlags.ReasonMask + 1), held);
            Assert.Fail("a reason one past the mask was stored");
        }
        catch (InvalidOperationException)
        {
        }
        Assert.That(flags.State, Is.EqualTo(SessionState.Connecting), "nothing was written");
        try
        {
            flags.SetHolds(-1, held);
            Assert.Fail("a hold released twice was stored");
        }
        catch (InvalidOperationException)
        {
        }
        Assert.That(flags.Holds, Is.EqualTo(1), "the constructor's hold is still counted");
    }
}
