using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Sockets;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests;

/// <summary>
/// The datagram engine's one rule for hook exceptions, on a recording host: a loop survives any hook, a synchronous
/// call sees its hook's exception, and a blocking call reports only errors worth it.
/// </summary>
[TestFixture]
public sealed class DatagramHooksTests
{
    private static readonly EndPoint s_sender = new IPEndPoint(IPAddress.Loopback, 9);

    [Test]
    public void AHookThatThrowsInALoopGoesToOnHandlerException()
    {
        var failure = new InvalidOperationException("from OnReceived");
        var host = new RecordingHost { Throw = failure };
        var hooks = new DatagramHooks(host);

        Assert.DoesNotThrow(() => hooks.Received(s_sender, new byte[4], 4));
        Assert.DoesNotThrow(() => hooks.Sent(s_sender, 4));
        Assert.DoesNotThrow(() => hooks.Error(SocketError.MessageSize));

        Assert.That(host.Calls, Is.EqualTo(new[] { "received 4", "sent 4", "error MessageSize" }));
        Assert.That(host.HandlerExceptions, Is.EqualTo(new[] { failure, failure, failure }));
    }

    [Test]
    public void AFailingOnHandlerExceptionDoesNotEndTheLoopEither()
    {
        var host = new RecordingHost { Throw = new InvalidOperationException("hook"), ThrowFromHandler = true };
        var hooks = new DatagramHooks(host);

        Assert.DoesNotThrow(() => hooks.Received(s_sender, new byte[1], 1));
        Assert.That(host.HandlerExceptions, Has.Count.EqualTo(1), "the handler ran, and threw");
    }

    [Test]
    public void AHookRaisedForASynchronousCallThrowsToThatCall()
    {
        var host = new RecordingHost { Throw = new InvalidOperationException("from OnError") };
        var hooks = new DatagramHooks(host);

        Assert.Throws<InvalidOperationException>(() => hooks.ReportInline(SocketError.NoBufferSpaceAvailable));
        Assert.That(host.HandlerExceptions, Is.Empty, "not OnHandlerException: the caller gets it");
    }

    [TestCase(SocketError.HostUnreachable, false, true)]
    [TestCase(SocketError.HostUnreachable, true, false)]
    [TestCase(SocketError.OperationAborted, false, false)]
    [TestCase(SocketError.ConnectionReset, false, false)]
    public void ABlockingCallReportsOnlyErrorsWorthItAndNoneAfterClose(SocketError error, bool closed, bool reported)
    {
        var host = new RecordingHost();
        var hooks = new DatagramHooks(host);

        Assert.That(hooks.BlockingFailed(error, closed), Is.EqualTo(-1));

        Assert.That(host.Calls, reported ? Is.EqualTo(new[] { $"error {error}" }) : Is.Empty);
    }

    private sealed class RecordingHost : IDatagramHost
    {
        public Exception? Throw { get; init; }

        public bool ThrowFromHandler { get; init; }

        public List<string> Calls { get; } = [];

        public List<Exception> HandlerExceptions { get; } = [];

        public void Received(EndPoint endpoint, byte[] buffer, long offset, long size) => Record($"received {size}");

        public void Sent(EndPoint endpoint, long sent) => Record($"sent {sent}");

        public void Error(SocketError error) => Record($"error {error}");

        public void HandlerException(Exception exception)
        {
            HandlerExceptions.Add(exception);
            if (ThrowFromHandler)
                throw new InvalidOperationException("from OnHandlerException");
        }

        private void Record(string call)
        {
            Calls.Add(call);
            if (Throw != null)
                throw Throw;
        }
    }
}
