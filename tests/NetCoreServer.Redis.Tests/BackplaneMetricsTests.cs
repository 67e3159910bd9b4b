using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics.Metrics;
using System.Linq;
using System.Threading.Tasks;

namespace NetCoreServer.Redis.Tests;

/// <summary>The backplane's counters as an operator reads them from the NetCoreServer.Redis meter.</summary>
[TestFixture]
public sealed class BackplaneMetricsTests
{
    [Test]
    public async Task AMessageThatCouldNotBePublishedShowsAsDroppedOnItsChannel()
    {
        var channel = "test:" + Guid.NewGuid().ToString("N");
        var options = new RedisBackplaneOptions { Channel = channel, ConnectTimeout = TimeSpan.FromSeconds(1), StartLocalOnlyIfUnreachable = true };
        var seen = new ConcurrentQueue<(string Instrument, long Value, string? Reason)>();
        using var listener = new MeterListener
        {
            InstrumentPublished = (instrument, l) =>
            {
                if (instrument.Meter.Name == RedisBackplane.MeterName)
                    l.EnableMeasurementEvents(instrument);
            },
        };
        listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) =>
        {
            var all = tags.ToArray();
            if (all.Any(t => t.Key == "netcoreserver.backplane.channel" && (string?)t.Value == channel))
                seen.Enqueue((instrument.Name, value, all.FirstOrDefault(t => t.Key == "netcoreserver.backplane.refusal.reason").Value as string));
        });
        listener.Start();

        await using var node = await LineNode.StartAsync($"127.0.0.1:{RedisServerProcess.FreePort()}", options);
        Assert.That(node.Server.Multicast("alone\n"), Is.True);
        await Wait.Until(() => node.Backplane.Dropped == 1, "the unpublished message counted as dropped");

        listener.RecordObservableInstruments();
        Assert.That(seen.Single(m => m.Instrument == "netcoreserver.backplane.dropped").Value, Is.EqualTo(1));
        Assert.That(seen.Single(m => m.Instrument == "netcoreserver.backplane.published").Value, Is.EqualTo(0));
        Assert.That(seen.Where(m => m.Instrument == "netcoreserver.backplane.refused").Select(m => m.Reason), Does.Contain("signature"), "one series per refusal reason");

        await node.DisposeAsync();
        seen.Clear();
        listener.RecordObservableInstruments();
        Assert.That(seen, Is.Empty, "a disposed backplane is no longer reported");
    }
}
