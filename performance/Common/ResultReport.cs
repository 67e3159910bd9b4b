using System;
using System.Buffers;
using System.Text;
using System.Text.Json;

namespace NetCoreServer.Performance.Common;

/// <summary>Prints a client benchmark's settings and result: NetCoreServer's table, or one JSON line.</summary>
public static class ResultReport
{
    /// <summary>The settings table printed before a human-readable run.</summary>
    public static void PrintHeader(ClientOptions options)
    {
        if (options.UsesSocketFile)
        {
            Console.WriteLine($"Server path: {options.ResolvedPath}");
        }
        else
        {
            Console.WriteLine($"Server address: {options.Address}");
            Console.WriteLine($"Server port: {options.ResolvedPort}");
        }
        Console.WriteLine($"Protocol: {options.Protocol.ToLowerInvariant()}");
        Console.WriteLine($"Working clients: {options.Clients}");
        if (options.ReportedMessages is { } messages)
            Console.WriteLine($"Working messages: {messages}");
        Console.WriteLine($"Message size: {options.Size}");
        Console.WriteLine($"Seconds to benchmarking: {options.Seconds}");
        Console.WriteLine();
    }

    /// <summary>The result table.</summary>
    public static void PrintTable(BenchmarkResult result)
    {
        Console.WriteLine();
        Console.WriteLine($"Errors: {result.Errors}");
        if (result.Lost is { } lost)
            Console.WriteLine($"Lost datagrams: {lost}");
        Console.WriteLine();
        Console.WriteLine($"Total time: {Units.Duration(result.Elapsed)}");
        Console.WriteLine($"Total data: {Units.DataSize(result.TotalBytes)}");
        Console.WriteLine($"Total messages: {result.TotalMessages}");
        Console.WriteLine($"Data throughput: {Units.DataSize(result.TotalBytes / Math.Max(result.Elapsed.TotalSeconds, 1e-9))}/s");
        Console.WriteLine($"Message latency: {Units.Latency(result.NanosecondsPerMessage)}");
        Console.WriteLine($"Message throughput: {Units.MessageRate(result.MessagesPerSecond)}");
    }

    /// <summary>
    /// The result as one JSON line with the keys protocol, clients, messages, size, seconds, total_bytes,
    /// total_messages, msg_per_s, mib_per_s and errors (messages is 0 for a benchmark without that figure), and lost
    /// for a benchmark that counts lost datagrams.
    /// </summary>
    public static string ToJson(BenchmarkResult result)
    {
        var buffer = new ArrayBufferWriter<byte>(512);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteString("protocol", result.Protocol);
            writer.WriteNumber("clients", result.Clients);
            writer.WriteNumber("messages", result.Messages ?? 0);
            writer.WriteNumber("size", result.Size);
            writer.WriteNumber("seconds", result.Seconds);
            writer.WriteNumber("total_bytes", result.TotalBytes);
            writer.WriteNumber("total_messages", result.TotalMessages);
            writer.WriteNumber("msg_per_s", Math.Round(result.MessagesPerSecond, 1));
            writer.WriteNumber("mib_per_s", Math.Round(result.MebibytesPerSecond, 3));
            writer.WriteNumber("errors", result.Errors);
            if (result.Lost is { } lost)
                writer.WriteNumber("lost", lost);
            writer.WriteEndObject();
        }
        return Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
