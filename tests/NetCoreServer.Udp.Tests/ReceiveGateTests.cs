using NUnit.Framework;

namespace NetCoreServer.Udp.Tests;

/// <summary>
/// The receive loop's parking, driven step by step in the order the loop and a closing thread can interleave, so each
/// interleaving is tested every run (on sockets, the window between the loop's last closed check and its parking is a
/// few instructions wide and no hook runs in it).
/// </summary>
[TestFixture]
public sealed class ReceiveGateTests
{
    [Test]
    public void ACloseBetweenTheLoopsLastCheckAndItsParkingStillWakesTheLoop()
    {
        var gate = Delivering();

        gate.Close();
        Assert.That(gate.ParkUnlessRequested(), Is.False, "nothing was requested during the delivery");

        Assert.That(gate.WaitAsync().IsCompleted, Is.True, "the parked loop is woken to see the close");
    }

    [Test]
    public void ACloseAfterTheLoopParkedWakesIt()
    {
        var gate = Delivering();
        Assert.That(gate.ParkUnlessRequested(), Is.False, "nothing was requested during the delivery");
        var parked = gate.WaitAsync();
        Assert.That(parked.IsCompleted, Is.False, "parked until something wakes it");

        gate.Close();

        Assert.That(parked.IsCompleted, Is.True, "the close wakes the parked loop");
    }

    [Test]
    public void ARequestDuringTheDeliveryKeepsTheLoopReceivingAndLaterOnesWakeItWhenParked()
    {
        var gate = Delivering();
        gate.Request();
        Assert.That(gate.ParkUnlessRequested(), Is.True, "the request made during OnReceived is kept");

        gate.Deliver();
        Assert.That(gate.ParkUnlessRequested(), Is.False, "no request this time");
        var parked = gate.WaitAsync();
        gate.Request();
        Assert.That(parked.IsCompleted, Is.True, "ReceiveAsync wakes the parked loop");
    }

    // A gate whose loop was woken by a request and is now in OnReceived.
    private static ReceiveGate Delivering()
    {
        var gate = new ReceiveGate();
        var parked = gate.WaitAsync();
        gate.Request();
        Assert.That(parked.IsCompleted, Is.True, "the first request wakes the loop");
        parked.GetAwaiter().GetResult();
        gate.Deliver();
        return gate;
    }
}
