using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Linq;
using System.Threading.Tasks;

namespace NetCoreServer.Tests.Support;

/// <summary>
/// A host's meter factory of its own (so parallel tests never see each other's servers) and a <see cref="MeterListener"/>
/// on it that keeps every measurement with its tags, as an operator's exporter would. Waiters are completed by the
/// measurement callback itself, so a test awaits the event, not a poll.
/// </summary>
internal sealed class MetricRecorder : IMeterFactory
{
    private readonly MeterListener _listener = new();
    private readonly ConcurrentQueue<Recorded> _recorded = new();
    private readonly List<(string Instrument, Func<Recorded, bool> Match, TaskCompletionSource<Recorded> Done)> _waiters = [];

    public MetricRecorder()
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (ReferenceEquals(instrument.Meter.Scope, this))
                listener.EnableMeasurementEvents(instrument);
        };
        _listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) => Add(instrument.Name, value, tags));
        _listener.SetMeasurementEventCallback<double>((instrument, value, tags, _) => Add(instrument.Name, value, tags));
        _listener.Start();
    }

    /// <summary>One measurement: the instrument's name, the value, the tags.</summary>
    internal sealed record Recorded(string Instrument, double Value, IReadOnlyDictionary<string, object?> Tags)
    {
        public string? Tag(string key) => Tags.TryGetValue(key, out var value) ? value?.ToString() : null;
    }

    public Meter Create(MeterOptions options) => new(options.Name, options.Version, options.Tags, scope: this);

    /// <summary>Every measurement of <paramref name="instrument"/> so far.</summary>
    public Recorded[] Of(string instrument) => _recorded.Where(r => r.Instrument == instrument).ToArray();

    /// <summary>The sum of what <paramref name="instrument"/> (a counter) recorded, where <paramref name="match"/> holds.</summary>
    public double Sum(string instrument, Func<Recorded, bool>? match = null) => Of(instrument).Where(r => match?.Invoke(r) ?? true).Sum(r => r.Value);

    /// <summary>Collects the observable instruments now and returns what <paramref name="instrument"/> reported (one server: one value).</summary>
    public double Observe(string instrument)
    {
        var before = _recorded.Count;
        _listener.RecordObservableInstruments();
        var values = _recorded.Skip(before).Where(r => r.Instrument == instrument).ToArray();
        if (values.Length != 1)
            throw new InvalidOperationException($"{instrument}: {values.Length} values observed, expected one server's");
        return values[0].Value;
    }

    /// <summary>Completes with the first measurement of <paramref name="instrument"/> (already recorded, or to come) that <paramref name="match"/> accepts.</summary>
    public Task<Recorded> Next(string instrument, Func<Recorded, bool>? match = null)
    {
        match ??= static _ => true;
        var done = new TaskCompletionSource<Recorded>(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_waiters)
        {
            var seen = _recorded.FirstOrDefault(r => r.Instrument == instrument && match(r));
            if (seen != null)
                done.SetResult(seen);
            else
                _waiters.Add((instrument, match, done));
        }
        return done.Task;
    }

    private void Add(string instrument, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        var recorded = new Recorded(instrument, value, new Dictionary<string, object?>(tags.ToArray()));
        lock (_waiters)
        {
            _recorded.Enqueue(recorded);
            for (var i = _waiters.Count - 1; i >= 0; i--)
            {
                if (_waiters[i].Instrument == instrument && _waiters[i].Match(recorded))
                {
                    _waiters[i].Done.TrySetResult(recorded);
                    _waiters.RemoveAt(i);
                }
            }
        }
    }

    public void Dispose() => _listener.Dispose();
}
