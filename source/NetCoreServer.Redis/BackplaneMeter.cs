using System;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Runtime.CompilerServices;
using System.Threading;

namespace NetCoreServer.Redis;

/// <summary>
/// The meter <see cref="RedisBackplane.MeterName"/> (the process's own, or one per <see cref="IMeterFactory"/>, the
/// attached server's <c>OptionMeterFactory</c>): the counters every backplane keeps anyway, published as observable
/// instruments read when a listener collects, tagged with the channel. Lock: <c>_lock</c> orders changes of the
/// registered backplanes (a copy-on-write array); collection reads without it.
/// </summary>
internal sealed class BackplaneMeter
{
    private static readonly ConditionalWeakTable<IMeterFactory, BackplaneMeter> s_byFactory = new();
    private static readonly Lazy<BackplaneMeter> s_shared = new(() => new BackplaneMeter(new Meter(RedisBackplane.MeterName, Version)));
    private static readonly string? Version = typeof(BackplaneMeter).Assembly.GetName().Version?.ToString();
    private static readonly BackplaneRefusal[] s_refusals = Enum.GetValues<BackplaneRefusal>();
    private static readonly string[] s_refusalNames = Array.ConvertAll(s_refusals, r => r.ToString().ToLowerInvariant());

    private readonly object _lock = new();
    private (RedisBackplane Backplane, KeyValuePair<string, object?>[] Tags)[] _backplanes = [];

    private BackplaneMeter(Meter meter)
    {
        meter.CreateObservableCounter("netcoreserver.backplane.published", () => Observe(static b => b.Published), "{message}", "Messages of this node published to Redis.");
        meter.CreateObservableCounter("netcoreserver.backplane.received", () => Observe(static b => b.Received), "{message}", "Messages of other nodes received and delivered here.");
        meter.CreateObservableCounter("netcoreserver.backplane.dropped", () => Observe(static b => b.Dropped), "{message}", "Messages delivered locally but not published (queue full, Redis down, too large).");
        meter.CreateObservableCounter("netcoreserver.backplane.lost", () => Observe(static b => b.Lost), "{message}", "Messages of other nodes that never arrived (gaps in their sequence numbers).");
        meter.CreateObservableCounter("netcoreserver.backplane.reconnects", () => Observe(static b => b.Reconnects), "{reconnect}", "Times the connection to Redis was restored.");
        meter.CreateObservableUpDownCounter("netcoreserver.backplane.queued_messages", () => Observe(static b => b.QueuedMessages), "{message}", "Messages waiting to be published.");
        meter.CreateObservableCounter("netcoreserver.backplane.refused", ObserveRefused, "{frame}", "Frames from the channel refused (tag netcoreserver.backplane.refusal.reason).");
    }

    public static BackplaneMeter For(IMeterFactory? factory)
    {
        if (factory == null)
            return s_shared.Value;
        return s_byFactory.GetValue(factory, static f => new BackplaneMeter(f.Create(new MeterOptions(RedisBackplane.MeterName) { Version = Version })));
    }

    public void Register(RedisBackplane backplane, string channel)
    {
        KeyValuePair<string, object?>[] tags = [new("netcoreserver.backplane.channel", channel)];
        lock (_lock)
            _backplanes = [.. _backplanes, (backplane, tags)];
    }

    public void Unregister(RedisBackplane backplane)
    {
        lock (_lock)
            _backplanes = Array.FindAll(_backplanes, b => !ReferenceEquals(b.Backplane, backplane));
    }

    private List<Measurement<long>> Observe(Func<RedisBackplane, long> read)
    {
        var backplanes = Volatile.Read(ref _backplanes);
        var measurements = new List<Measurement<long>>(backplanes.Length);
        foreach (var (backplane, tags) in backplanes)
            measurements.Add(new Measurement<long>(read(backplane), tags));
        return measurements;
    }

    private List<Measurement<long>> ObserveRefused()
    {
        var backplanes = Volatile.Read(ref _backplanes);
        var measurements = new List<Measurement<long>>(backplanes.Length * s_refusals.Length);
        foreach (var (backplane, tags) in backplanes)
        {
            for (var i = 0; i < s_refusals.Length; i++)
                measurements.Add(new Measurement<long>(backplane.RefusedFor(s_refusals[i]), [.. tags, new("netcoreserver.backplane.refusal.reason", s_refusalNames[i])]));
        }
        return measurements;
    }
}
