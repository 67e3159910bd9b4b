using System;
using System.Linq;
using System.Net.Sockets;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests;

/// <summary>Which socket errors end a loop and which reach OnError.</summary>
[TestFixture]
public sealed class UdpErrorTests
{
    [Test]
    public void AnErrorThatEndsALoopIsNeverReported()
    {
        var reportedTeardown = Enum.GetValues<SocketError>().Where(e => DatagramErrors.IsTeardown(e) && DatagramErrors.IsReportable(e));
        Assert.That(reportedTeardown, Is.Empty, "teardown errors that would reach OnError");
    }

    [TestCase(SocketError.ConnectionReset)]
    [TestCase(SocketError.ConnectionRefused)]
    [TestCase(SocketError.ConnectionAborted)]
    public void AnIcmpEchoOfAnEarlierSendIsNeitherReportedNorTheEndOfTheLoop(SocketError error)
    {
        Assert.That(DatagramErrors.IsReportable(error), Is.False, "reported");
        Assert.That(DatagramErrors.IsTeardown(error), Is.False, "ends the loop");
    }

    [TestCase(SocketError.MessageSize)]
    [TestCase(SocketError.NoBufferSpaceAvailable)]
    [TestCase(SocketError.AddressFamilyNotSupported)]
    [TestCase(SocketError.HostUnreachable)]
    [TestCase(SocketError.AccessDenied)]
    public void AFailureOfThisSocketIsReported(SocketError error)
        => Assert.That(DatagramErrors.IsReportable(error), Is.True);
}
