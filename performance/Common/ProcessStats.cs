using System;
using System.Buffers;
using System.Diagnostics;
using System.Text;
using System.Text.Json;
using System.Threading;

namespace NetCoreServer.Performance.Common;

/// <summary>
/// What this process has cost so far, as one line a harness reads from a server's output (<c>--stats</c>):
/// <c>stats {"allocated_bytes":N,"cpu_seconds":S,"gen0":N,"gen1":N,"gen2":N,"working_set":N,"work_items":N,"pool_threads":N}</c>.
/// The difference of two lines is what the work between them cost.
/// </summary>
public static class ProcessStats
{
    /// <summary>What starts the line, before the JSON object.</summary>
    public const string Prefix = "stats ";

    /// <summary>The line, with the managed bytes allocated by every thread so far (precise), the process's user and
    /// system CPU time, the collection counts, the working set, the thread-pool work items completed so far (each one a
    /// hand-off from the thread that queued it: socket completions the runtime dispatches, continuations) and the
    /// pool's current thread count.</summary>
    public static string Line()
    {
        using var process = Process.GetCurrentProcess();
        var buffer = new ArrayBufferWriter<byte>(256);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteNumber("allocated_bytes", GC.GetTotalAllocatedBytes(precise: true));
            writer.WriteNumber("cpu_seconds", Math.Round(process.TotalProcessorTime.TotalSeconds, 3));
            writer.WriteNumber("gen0", GC.CollectionCount(0));
            writer.WriteNumber("gen1", GC.CollectionCount(1));
            writer.WriteNumber("gen2", GC.CollectionCount(2));
            writer.WriteNumber("working_set", process.WorkingSet64);
            writer.WriteNumber("work_items", ThreadPool.CompletedWorkItemCount);
            writer.WriteNumber("pool_threads", ThreadPool.ThreadCount);
            writer.WriteEndObject();
        }
        return Prefix + Encoding.UTF8.GetString(buffer.WrittenSpan);
    }
}
