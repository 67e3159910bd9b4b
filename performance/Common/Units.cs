using System;
using System.Globalization;

namespace NetCoreServer.Performance.Common;

/// <summary>Formats sizes, durations and rates the way the reports show them.</summary>
public static class Units
{
    private static readonly string[] s_sizeUnits = ["KiB", "MiB", "GiB", "TiB", "PiB"];

    /// <summary>"123 bytes", "1.234 KiB", "56.789 MiB", ...</summary>
    public static string DataSize(double bytes)
    {
        if (Math.Abs(bytes) < 1024)
            return string.Create(CultureInfo.InvariantCulture, $"{bytes:0} bytes");
        var value = bytes;
        var unit = -1;
        while (Math.Abs(value) >= 1024 && unit < s_sizeUnits.Length - 1)
        {
            value /= 1024;
            unit++;
        }
        return string.Create(CultureInfo.InvariantCulture, $"{value:0.000} {s_sizeUnits[unit]}");
    }

    /// <summary>"850.000 ms", "10.012 s".</summary>
    public static string Duration(TimeSpan duration) => duration.TotalSeconds < 1
        ? string.Create(CultureInfo.InvariantCulture, $"{duration.TotalMilliseconds:0.000} ms")
        : string.Create(CultureInfo.InvariantCulture, $"{duration.TotalSeconds:0.000} s");

    /// <summary>"225.3 ns/op", "1.234 us/op", "2.500 ms/op"; "n/a" when nothing was measured.</summary>
    public static string Latency(double nanoseconds)
    {
        if (double.IsInfinity(nanoseconds) || double.IsNaN(nanoseconds))
            return "n/a";
        if (nanoseconds < 1_000)
            return string.Create(CultureInfo.InvariantCulture, $"{nanoseconds:0.0} ns/op");
        if (nanoseconds < 1_000_000)
            return string.Create(CultureInfo.InvariantCulture, $"{nanoseconds / 1_000:0.000} us/op");
        return string.Create(CultureInfo.InvariantCulture, $"{nanoseconds / 1_000_000:0.000} ms/op");
    }

    /// <summary>"4438828 msg/s".</summary>
    public static string MessageRate(double perSecond) => string.Create(CultureInfo.InvariantCulture, $"{perSecond:0} msg/s");
}
