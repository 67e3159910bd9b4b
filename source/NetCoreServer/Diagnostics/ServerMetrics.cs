using System.Collections.Generic;
using System.Diagnostics;
using System.Diagnostics.Metrics;
using System.Security.Authentication;

namespace NetCoreServer.Diagnostics;

/// <summary>
/// One started server's part of the metrics: its tags (made once: <c>network.transport</c>, <c>network.protocol.name</c>,
/// <c>server.address</c>, <c>server.port</c>) and one call per event, each a no-op (one field read) while no listener
/// listens to that instrument. Durations are <see cref="Stopwatch"/> timestamps taken only when the histogram is on.
/// </summary>
internal sealed class ServerMetrics
{
    private readonly LibraryInstruments _instruments;

    private ServerMetrics(LibraryInstruments instruments, IServerReadings readings, KeyValuePair<string, object?>[] tags)
    {
        _instruments = instruments;
        Readings = readings;
        Tags = tags;
    }

    public IServerReadings Readings { get; }

    public KeyValuePair<string, object?>[] Tags { get; }

    /// <summary>Registers a server that has just started with the meter of <paramref name="factory"/> (null: the library's own).</summary>
    /// <param name="factory">The host's meter factory, or null.</param>
    /// <param name="readings">The counters the server keeps.</param>
    /// <param name="transport">"tcp", "unix" or "udp".</param>
    /// <param name="protocol">"http", "websocket", or null for raw bytes.</param>
    /// <param name="address">The address as the user gave it (the socket file's path for Unix sockets).</param>
    /// <param name="port">The bound port, or null for Unix sockets.</param>
    public static ServerMetrics Start(IMeterFactory? factory, IServerReadings readings, string transport, string? protocol, string address, int? port)
    {
        var tags = new List<KeyValuePair<string, object?>>(4) { new("network.transport", transport) };
        if (protocol != null)
            tags.Add(new("network.protocol.name", protocol));
        tags.Add(new("server.address", address));
        if (port != null)
            tags.Add(new("server.port", port.Value));
        var metrics = new ServerMetrics(LibraryInstruments.For(factory), readings, tags.ToArray());
        metrics._instruments.Register(metrics);
        return metrics;
    }

    /// <summary>The server stopped: its readings leave the observable instruments.</summary>
    public void Stop() => _instruments.Unregister(this);

    /// <summary>A timestamp for a connection's duration, or 0 when nobody listens to it.</summary>
    public long ConnectionStart() => _instruments.ConnectionDuration.Enabled ? Stopwatch.GetTimestamp() : 0;

    /// <summary>A timestamp for a handshake's duration, or 0 when nobody listens to it.</summary>
    public long HandshakeStart() => _instruments.HandshakeDuration.Enabled ? Stopwatch.GetTimestamp() : 0;

    /// <summary>A timestamp for a request's duration, or 0 when nobody listens to it.</summary>
    public long RequestStart() => _instruments.RequestDuration.Enabled ? Stopwatch.GetTimestamp() : 0;

    public void ConnectionAccepted() => _instruments.AcceptedConnections.Add(1, Tags);

    public void ConnectionRefused(RefusalReason reason)
    {
        var counter = _instruments.RefusedConnections;
        if (counter.Enabled)
            counter.Add(1, With("netcoreserver.refusal.reason", MetricTags.Of(reason)));
    }

    public void ConnectionEnded(long startedAt, DisconnectReason reason)
    {
        var histogram = _instruments.ConnectionDuration;
        if (startedAt != 0 && histogram.Enabled)
            histogram.Record(Stopwatch.GetElapsedTime(startedAt).TotalSeconds, With("netcoreserver.disconnect.reason", MetricTags.Of(reason)));
    }

    public void HandshakeSucceeded(long startedAt, SslProtocols protocol)
    {
        var histogram = _instruments.HandshakeDuration;
        if (startedAt != 0 && histogram.Enabled)
            histogram.Record(Stopwatch.GetElapsedTime(startedAt).TotalSeconds, With("tls.protocol.version", MetricTags.TlsVersion(protocol)));
    }

    public void HandshakeFailed(long startedAt)
    {
        // Timed before it is counted: whoever sees the failure counted finds its duration already recorded.
        var histogram = _instruments.HandshakeDuration;
        if (startedAt != 0 && histogram.Enabled)
            histogram.Record(Stopwatch.GetElapsedTime(startedAt).TotalSeconds, With("error.type", "handshake_failed"));
        _instruments.HandshakeFailures.Add(1, Tags);
    }

    public void RequestAnswered(long startedAt, string method, int status, string? protocolVersion = null)
    {
        var histogram = _instruments.RequestDuration;
        if (startedAt == 0 || !histogram.Enabled)
            return;
        var tags = With("http.request.method", MetricTags.Method(method));
        tags.Add("http.response.status_code", MetricTags.Status(status));
        // HTTP/2 requests say so (OpenTelemetry's network.protocol.version); HTTP/1.1's tags are as they were.
        if (protocolVersion != null)
            tags.Add("network.protocol.version", protocolVersion);
        histogram.Record(Stopwatch.GetElapsedTime(startedAt).TotalSeconds, tags);
    }

    public void WsUpgrade(bool accepted)
    {
        var counter = _instruments.WsUpgrades;
        if (counter.Enabled)
            counter.Add(1, With("netcoreserver.upgrade.result", accepted ? "accepted" : "refused"));
    }

    public void WsMessageReceived() => _instruments.WsMessagesReceived.Add(1, Tags);

    public void WsMessageSent() => _instruments.WsMessagesSent.Add(1, Tags);

    // A TagList holds eight tags inline: the server's four and up to four more cost no allocation.
    private TagList With(string key, object value)
    {
        var tags = new TagList(Tags) { { key, value } };
        return tags;
    }
}
