using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Threading;
using BenchmarkDotNet.Attributes;
using NetCoreServer.Diagnostics;
using OpenTelemetry;
using OpenTelemetry.Metrics;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// What publishing one event costs a server (docs/design/metrics.md): a per-message counter (a WebSocket message sent),
/// a connection's end (a histogram with its reason) and an HTTP request's answer (a histogram with method and status),
/// with no listener, with a <see cref="MeterListener"/> that only adds up what it gets (the cheapest exporter), and
/// with the OpenTelemetry SDK collecting the meter (its aggregation; the exporter runs once a minute, outside the loop).
/// </summary>
[MemoryDiagnoser]
public class MetricsBenchmarks
{
    private ServerMetrics _metrics = null!;
    private Factory _factory = null!;
    private MeterProvider? _openTelemetry;
    private readonly List<Metric> _exported = [];

    /// <summary>Who listens to the meter.</summary>
    public enum Listener
    {
        /// <summary>Nobody: what every server pays.</summary>
        None,

        /// <summary>A MeterListener that adds up longs and doubles.</summary>
        Sum,

        /// <summary>The OpenTelemetry SDK's MeterProvider with an in-memory exporter.</summary>
        OpenTelemetry,
    }

    /// <summary>Who listens to the meter.</summary>
    [Params(Listener.None, Listener.Sum, Listener.OpenTelemetry)]
    public Listener Listening { get; set; }

    /// <summary>Makes one server's metrics on a meter of its own, and checks the listener sees a count.</summary>
    [GlobalSetup]
    public void Setup()
    {
        _factory = new Factory(Listening == Listener.Sum);
        if (Listening == Listener.OpenTelemetry)
            _openTelemetry = Sdk.CreateMeterProviderBuilder().AddMeter(ServerMeter.Name).AddInMemoryExporter(_exported).Build();
        _metrics = ServerMetrics.Start(_factory, new NoReadings(), "tcp", "websocket", "127.0.0.1", 8080);
        _metrics.WsMessageSent();
        if (_factory.Longs != (Listening == Listener.Sum ? 1 : 0))
            throw new InvalidOperationException($"the listener saw {_factory.Longs} counts, expected {(Listening == Listener.Sum ? 1 : 0)}");
        if (_openTelemetry != null && (!_openTelemetry.ForceFlush() || _exported.Count == 0))
            throw new InvalidOperationException("the OpenTelemetry SDK exported nothing of the meter");
    }

    /// <summary>Unregisters the server and stops the listener.</summary>
    [GlobalCleanup]
    public void Cleanup()
    {
        _metrics.Stop();
        _openTelemetry?.Dispose();
        _factory.Dispose();
    }

    /// <summary>One WebSocket message sent: the only per-message call.</summary>
    [Benchmark(Baseline = true)]
    public void MessageSent() => _metrics.WsMessageSent();

    /// <summary>One connection's end: a timestamp at its start, a histogram tagged with its reason.</summary>
    [Benchmark]
    public void ConnectionEnded() => _metrics.ConnectionEnded(_metrics.ConnectionStart(), DisconnectReason.PeerClosed);

    /// <summary>One HTTP request answered: a histogram tagged with method and status code.</summary>
    [Benchmark]
    public void RequestAnswered() => _metrics.RequestAnswered(_metrics.RequestStart(), "GET", 200);

    private sealed class Factory : IMeterFactory
    {
        private readonly MeterListener _listener = new();
        public long Longs;
        public double Doubles;

        public Factory(bool listen)
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
}
