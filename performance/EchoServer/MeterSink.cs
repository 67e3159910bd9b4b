using System;
using System.Diagnostics.Metrics;
using System.Threading;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>
/// With NETCORESERVER_METER_LISTENER=1, a MeterListener on the library's meter that only adds up what it is given (the
/// cheapest exporter there is): measures what publishing costs per message (docs/design/metrics.md).
/// </summary>
internal static class MeterSink
{
    private static long s_longs;
    private static double s_doubles;

    public static MeterListener? StartIfAsked()
    {
        if (Environment.GetEnvironmentVariable("NETCORESERVER_METER_LISTENER") != "1")
            return null;
        var listener = new MeterListener
        {
            InstrumentPublished = static (instrument, listener) =>
            {
                if (instrument.Meter.Name == ServerMeter.Name)
                    listener.EnableMeasurementEvents(instrument);
            },
        };
        listener.SetMeasurementEventCallback<long>(static (_, value, _, _) => Interlocked.Add(ref s_longs, value));
        listener.SetMeasurementEventCallback<double>(static (_, value, _, _) => s_doubles += value);
        listener.Start();
        return listener;
    }
}
