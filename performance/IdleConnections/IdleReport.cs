using System;
using System.Buffers;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Text;
using System.Text.Json;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>Prints the idle connections result: a table, or one JSON line.</summary>
internal static class IdleReport
{
    /// <summary>The table, with the library's overhead over each baseline.</summary>
    public static void PrintTable(IdleOptions options, IReadOnlyList<SetResult> results)
    {
        var protocol = options.Protocol.ToLowerInvariant();
        Console.WriteLine($"Idle connections: {options.Connections} over {protocol} on 127.0.0.1, read {Measurement.IdleTime.TotalSeconds:0} s after the last one was ready, after a full GC.");
        Console.WriteLine("Server and clients run in this one process: a figure per connection is one server-side session plus one");
        Console.WriteLine("client object, with both sockets. Kernel socket buffers are not part of the working set.");
        Console.WriteLine();
        Console.WriteLine($"{"Connection",-40} {"Managed B/conn",15} {"Working set B/conn",19}");
        Console.WriteLine($"{"----------",-40} {"--------------",15} {"------------------",19}");
        foreach (var result in results)
            Console.WriteLine($"{result.Description,-40} {Bytes(result.ManagedBytesPerConnection),15} {Bytes(result.WorkingSetBytesPerConnection),19}");

        var library = results.First(result => result.Set == ConnectionSets.Library);
        Console.WriteLine();
        foreach (var baseline in results.Where(result => result.Set != ConnectionSets.Library))
        {
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"Library overhead over {baseline.Description}: managed {Difference(library.ManagedBytesPerConnection, baseline.ManagedBytesPerConnection)}, working set {Difference(library.WorkingSetBytesPerConnection, baseline.WorkingSetBytesPerConnection)} per connection"));
        }
    }

    /// <summary>
    /// One JSON line: protocol, connections, managed_bytes_per_connection and working_set_bytes_per_connection (the
    /// library's), then the same two figures of each baseline prefixed raw_ (Socket pairs) and raw_tls_ (SslStream pairs, ssl only).
    /// </summary>
    public static string ToJson(IdleOptions options, IReadOnlyList<SetResult> results)
    {
        return Write(writer =>
        {
            writer.WriteString("protocol", options.Protocol.ToLowerInvariant());
            writer.WriteNumber("connections", options.Connections);
            foreach (var result in results)
            {
                var prefix = result.Set switch
                {
                    ConnectionSets.Library => "",
                    ConnectionSets.RawTls => "raw_tls_",
                    _ => "raw_",
                };
                writer.WriteNumber(prefix + "managed_bytes_per_connection", Math.Round(result.ManagedBytesPerConnection));
                writer.WriteNumber(prefix + "working_set_bytes_per_connection", Math.Round(result.WorkingSetBytesPerConnection));
            }
        });
    }

    /// <summary>One set's result, as a child process (<c>--phase</c>) hands it to its parent.</summary>
    public static string ToJson(SetResult result)
    {
        return Write(writer =>
        {
            writer.WriteString("set", result.Set);
            writer.WriteString("description", result.Description);
            writer.WriteNumber("managed_bytes_per_connection", result.ManagedBytesPerConnection);
            writer.WriteNumber("working_set_bytes_per_connection", result.WorkingSetBytesPerConnection);
        });
    }

    private static string Write(Action<Utf8JsonWriter> body)
    {
        var buffer = new ArrayBufferWriter<byte>(512);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            body(writer);
            writer.WriteEndObject();
        }
        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }

    private static string Bytes(double value) => value.ToString("N0", CultureInfo.InvariantCulture);

    private static string Difference(double library, double baseline)
    {
        var sign = library >= baseline ? "+" : "-";
        var ratio = baseline > 0 ? string.Create(CultureInfo.InvariantCulture, $" ({library / baseline:0.00}x)") : "";
        return $"{sign}{Bytes(Math.Abs(library - baseline))} B{ratio}";
    }
}
