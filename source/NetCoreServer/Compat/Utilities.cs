using System;
using System.Globalization;

namespace NetCoreServer;

/// <summary>Human-readable sizes and durations for logs and benchmark output (NetCoreServer's helpers).</summary>
public class Utilities
{
    private static readonly string[] s_sizeUnits = ["KiB", "MiB", "GiB", "TiB"];

    /// <summary>
    /// A data size in binary units: "512 bytes", "1.500 KiB", "2.250 MiB", "3.000 GiB", "1.000 TiB" (TiB is the
    /// largest unit). The value is truncated to whole bytes; the fraction has three digits, truncated, so it never
    /// rounds up to the next unit. Negative sizes get a minus sign.
    /// </summary>
    /// <param name="b">Size in bytes.</param>
    /// <returns>The size as text; a non-finite value is written as it is, followed by " bytes".</returns>
    /// <remarks>NetCoreServer writes the remainder in the next smaller unit after the point ("1.512 KiB" for 1536 bytes); this writes a decimal fraction ("1.500 KiB").</remarks>
    public static string GenerateDataSize(double b)
    {
        if (!double.IsFinite(b))
            return b.ToString(CultureInfo.InvariantCulture) + " bytes";
        var bytes = (long)Math.Clamp(b, long.MinValue, long.MaxValue);
        var sign = bytes < 0 ? "-" : "";
        var magnitude = bytes == long.MinValue ? (ulong)long.MaxValue + 1 : (ulong)Math.Abs(bytes);
        if (magnitude < 1024)
            return string.Create(CultureInfo.InvariantCulture, $"{sign}{magnitude} bytes");
        var unit = 0;
        var divisor = 1024UL;
        while (unit < s_sizeUnits.Length - 1 && magnitude >= divisor * 1024)
        {
            divisor *= 1024;
            unit++;
        }
        var whole = magnitude / divisor;
        var thousandths = (ulong)((UInt128)(magnitude % divisor) * 1000 / divisor);
        return string.Create(CultureInfo.InvariantCulture, $"{sign}{whole}.{thousandths:000} {s_sizeUnits[unit]}");
    }

    /// <summary>
    /// A duration given in milliseconds: "350 ns", "12.500 mcs", "3.250 ms", "1.500 s", "2:05.250 m" (minutes),
    /// "1:02:03.004 h" (hours). Below a second the fraction is the next unit in thousandths; the value is
    /// truncated to whole nanoseconds. Negative durations get a minus sign.
    /// </summary>
    /// <param name="ms">Duration in milliseconds.</param>
    /// <returns>The duration as text; a non-finite value is written as it is, followed by " ms".</returns>
    public static string GenerateTimePeriod(double ms)
    {
        if (!double.IsFinite(ms))
            return ms.ToString(CultureInfo.InvariantCulture) + " ms";
        var nanoseconds = (long)Math.Clamp(ms * 1_000_000.0, long.MinValue + 1, long.MaxValue);
        var sign = nanoseconds < 0 ? "-" : "";
        var n = Math.Abs(nanoseconds);
        const long Microsecond = 1_000, Millisecond = 1_000_000, Second = 1_000_000_000, Minute = 60 * Second, Hour = 60 * Minute;
        var millis = n % Second / Millisecond;
        return n switch
        {
            >= Hour => string.Create(CultureInfo.InvariantCulture, $"{sign}{n / Hour}:{n % Hour / Minute:00}:{n % Minute / Second:00}.{millis:000} h"),
            >= Minute => string.Create(CultureInfo.InvariantCulture, $"{sign}{n / Minute}:{n % Minute / Second:00}.{millis:000} m"),
            >= Second => string.Create(CultureInfo.InvariantCulture, $"{sign}{n / Second}.{millis:000} s"),
            >= Millisecond => string.Create(CultureInfo.InvariantCulture, $"{sign}{n / Millisecond}.{n % Millisecond / Microsecond:000} ms"),
            >= Microsecond => string.Create(CultureInfo.InvariantCulture, $"{sign}{n / Microsecond}.{n % Microsecond:000} mcs"),
            _ => string.Create(CultureInfo.InvariantCulture, $"{sign}{n} ns"),
        };
    }
}
