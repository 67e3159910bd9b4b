using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Runtime.CompilerServices;

namespace NetCoreServer.Diagnostics;

/// <summary>
/// The instruments of one <see cref="Meter"/> named <see cref="ServerMeter.Name"/>: the process's own (no factory) or
/// one per <see cref="IMeterFactory"/>. Counters recorded per event are created once here; what the servers already
/// count is published by observable instruments that read every registered server when a listener collects.
/// Lock: <c>_lock</c> orders changes of the registered servers (a copy-on-write array); collection reads without it.
/// </summary>
internal sealed class LibraryInstruments
{
    private static readonly ConditionalWeakTable<IMeterFactory, LibraryInstruments> s_byFactory = new();
    private static readonly Lazy<LibraryInstruments> s_shared = new(() => new LibraryInstruments(new Meter(ServerMeter.Name, Version)));
    private static readonly string? Version = typeof(LibraryInstruments).Assembly.GetName().Version?.ToString();

    // Kestrel's boundaries for connection and handshake durations (seconds): short requests to long-lived sockets.
    private static readonly InstrumentAdvice<double> s_longDurations = new() { HistogramBucketBoundaries = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300] };
    private static readonly InstrumentAdvice<double> s_shortDurations = new() { HistogramBucketBoundaries = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10] };

    private readonly object _lock = new();
    private ServerMetrics[] _servers = [];

    private LibraryInstruments(Meter meter)
    {
        Meter = meter;
        AcceptedConnections = meter.CreateCounter<long>("netcoreserver.accepted_connections", "{connection}", "Connections accepted and made into sessions.");
        RefusedConnections = meter.CreateCounter<long>("netcoreserver.refused_connections", "{connection}", "Connections closed at once instead of becoming sessions (tag netcoreserver.refusal.reason).");
        ConnectionDuration = meter.CreateHistogram("netcoreserver.connection.duration", "s", "How long sessions lasted, from accept to release (tag netcoreserver.disconnect.reason).", advice: s_longDurations);
        HandshakeDuration = meter.CreateHistogram("netcoreserver.tls.handshake.duration", "s", "TLS handshake durations (tls.protocol.version, or error.type on failure).", advice: s_shortDurations);
        HandshakeFailures = meter.CreateCounter<long>("netcoreserver.tls.handshake.failures", "{handshake}", "TLS handshakes that failed or timed out.");
        RequestDuration = meter.CreateHistogram("http.server.request.duration", "s", "From an HTTP request's head read to its response queued.", advice: s_shortDurations);
        WsUpgrades = meter.CreateCounter<long>("netcoreserver.websocket.upgrades", "{upgrade}", "WebSocket upgrade requests (tag netcoreserver.upgrade.result: accepted, refused).");
        WsMessagesReceived = meter.CreateCounter<long>("netcoreserver.websocket.messages_received", "{message}", "WebSocket data messages received by server sessions.");
        WsMessagesSent = meter.CreateCounter<long>("netcoreserver.websocket.messages_sent", "{message}", "WebSocket data messages sent by server sessions (a multicast counts once).");

        meter.CreateObservableUpDownCounter("netcoreserver.active_connections", () => Observe(static r => r.ActiveConnections, datagram: false), "{connection}", "Sessions registered now.");
        meter.CreateObservableUpDownCounter("netcoreserver.queued_send_bytes", () => Observe(static r => r.BytesQueued, datagram: null), "By", "Bytes accepted for sending and not yet handed to the socket.");
        meter.CreateObservableCounter("netcoreserver.bytes_received", () => Observe(static r => r.BytesReceived, datagram: null), "By", "Bytes received since the server started.");
        meter.CreateObservableCounter("netcoreserver.bytes_sent", () => Observe(static r => r.BytesSent, datagram: null), "By", "Bytes sent since the server started.");
        meter.CreateObservableCounter("netcoreserver.multicast.skipped", () => Observe(static r => r.SkippedMulticasts, datagram: false), "{message}", "Multicast messages a slow consumer did not get (one per session and message).");
        meter.CreateObservableCounter("netcoreserver.slow_consumer.episodes", () => Observe(static r => r.SlowConsumerEpisodes, datagram: false), "{episode}", "Times a session began skipping multicasts or was disconnected as a slow consumer.");
        meter.CreateObservableCounter("netcoreserver.udp.datagrams_received", () => Observe(static r => r.DatagramsReceived, datagram: true), "{datagram}", "Datagrams received by UDP servers.");
        meter.CreateObservableCounter("netcoreserver.udp.datagrams_sent", () => Observe(static r => r.DatagramsSent, datagram: true), "{datagram}", "Datagrams sent by UDP servers.");
        meter.CreateObservableCounter("netcoreserver.udp.datagrams_dropped", () => Observe(static r => r.DatagramsDropped, datagram: true), "{datagram}", "Datagrams refused by the send limit of UDP servers.");
    }

    public Meter Meter { get; }

    public Counter<long> AcceptedConnections { get; }

    public Counter<long> RefusedConnections { get; }

    public Histogram<double> ConnectionDuration { get; }

    public Histogram<double> HandshakeDuration { get; }

    public Counter<long> HandshakeFailures { get; }

    public Histogram<double> RequestDuration { get; }

    public Counter<long> WsUpgrades { get; }

    public Counter<long> WsMessagesReceived { get; }

    public Counter<long> WsMessagesSent { get; }

    /// <summary>The instruments of <paramref name="factory"/>'s meter, or of the process's own meter when null.</summary>
    public static LibraryInstruments For(IMeterFactory? factory)
    {
        if (factory == null)
            return s_shared.Value;
        return s_byFactory.GetValue(factory, static f => new LibraryInstruments(f.Create(new MeterOptions(ServerMeter.Name) { Version = Version })));
    }

    /// <summary>A started server: its readings are published from now on.</summary>
    public void Register(ServerMetrics server)
    {
        lock (_lock)
            _servers = [.. _servers, server];
    }

    /// <summary>A stopped server: its readings are no longer published.</summary>
    public void Unregister(ServerMetrics server)
    {
        lock (_lock)
            _servers = Array.FindAll(_servers, s => !ReferenceEquals(s, server));
    }

    // Runs when a listener collects; allocates then, never per message. datagram null: every kind of server.
    private List<Measurement<long>> Observe(Func<IServerReadings, long> read, bool? datagram)
    {
        var servers = System.Threading.Volatile.Read(ref _servers);
        var measurements = new List<Measurement<long>>(servers.Length);
        foreach (var server in servers)
        {
            if (datagram == null || server.Readings.Datagram == datagram)
                measurements.Add(new Measurement<long>(read(server.Readings), server.Tags));
        }
        return measurements;
    }
}
