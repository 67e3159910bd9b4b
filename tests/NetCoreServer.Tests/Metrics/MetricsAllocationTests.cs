using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Security.Authentication;
using System.Threading;
using NetCoreServer.Diagnostics;
using NUnit.Framework;

namespace NetCoreServer.Tests.Metrics;

/// <summary>
/// Every per-event call allocates nothing, with or without a listener: the tags are made once per server, reasons
/// and methods are cached strings and status codes cached boxes (a boxed int per message would be garbage per message).
/// </summary>
[TestFixture]
public sealed class MetricsAllocationTests
{
    private const int Calls = 10_000;

    /// <summary>A host's meter factory with a listener that only adds up longs and doubles, as a lean exporter does.</summary>
    private sealed class SummingFactory : IMeterFactory
    {
        private readonly MeterListener _listener = new();
        public long Longs;
        public double Doubles;

        public SummingFactory(bool listen)
        {
            if (!listen)
                return;
            _listener.InstrumentPublished = (instrument, listener) =>
            {
                if (ReferenceEquals(instrument.Meter.Scope, this))
                    listener.EnableMeasurementEvents(instrument);
            };
            _listener.SetMeasurementEventCallback<long>((_, value, _, _) => Interlocked.Add(ref Longs, value));
            _listener.SetMeasurementEventCallback<double>((_, value, _, _) => Doubles += value);
            _listener.Start();
        }

        public Meter Create(MeterOptions options) => new(options.Name, options.Version, options.Tags, scope: this);

        public void Dispose() => _listener.Dispose();
    }

    private sealed class NoReadings : IServerReadings
    {
        public bool Datagram => false;
        public long ActiveConnections => 0;
        public long BytesReceived => 0;
        public long BytesSent => 0;
        public long BytesQueued => 0;
        public long SkippedMulticasts => 0;
        public long SlowConsumerEpisodes => 0;
        public long DatagramsReceived => 0;
        public long DatagramsSent => 0;
        public long DatagramsDropped => 0;
    }

    private static void EveryEvent(ServerMetrics metrics)
    {
        metrics.ConnectionAccepted();
        metrics.ConnectionRefused(RefusalReason.AddressFull);
        metrics.ConnectionEnded(metrics.ConnectionStart(), DisconnectReason.PeerClosed);
        metrics.HandshakeSucceeded(metrics.HandshakeStart(), SslProtocols.Tls13);
        metrics.HandshakeFailed(metrics.HandshakeStart());
        metrics.RequestAnswered(metrics.RequestStart(), "GET", 404);
        metrics.WsUpgrade(accepted: true);
        metrics.WsMessageReceived();
        metrics.WsMessageSent();
    }

    [TestCase(true)]
    [TestCase(false)]
    public void EveryEventCallAllocatesNothing(bool listen)
    {
        using var factory = new SummingFactory(listen);
        var metrics = ServerMetrics.Start(factory, new NoReadings(), "tcp", "websocket", "127.0.0.1", 8080);
        try
        {
            // A first pass of the same size: what the runtime allocates once (tiered JIT, lazy statics) is not per call.
            for (var i = 0; i < Calls; i++)
                EveryEvent(metrics);
            var before = GC.GetAllocatedBytesForCurrentThread();
            for (var i = 0; i < Calls; i++)
                EveryEvent(metrics);
            var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

            Assert.That(allocated, Is.EqualTo(0), $"bytes allocated by {Calls} rounds of every event");
            // Accepted, refused, handshake failure, upgrade, two messages: six counted per round.
            Assert.That(factory.Longs, Is.EqualTo(listen ? 6L * 2 * Calls : 0), "the listener saw every count");
            Assert.That(factory.Doubles, listen ? Is.GreaterThan(0) : Is.EqualTo(0));
        }
        finally
        {
            metrics.Stop();
        }
    }
}
