using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Text.Json;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>
/// Measures a set in a fresh copy of this program (<c>--phase</c>): memory a set has freed stays committed in the
/// process (the GC's and the native allocator's), and would make the next set measured there look cheaper.
/// </summary>
internal static class ChildProcess
{
    // Opening, idling and closing take seconds even for TLS; far longer means a hang.
    private static readonly TimeSpan s_timeout = TimeSpan.FromMinutes(5);

    /// <summary>Runs the child for <paramref name="set"/> and returns what it measured; its stderr goes to ours.</summary>
    /// <param name="set">The set to measure (see <see cref="ConnectionSets"/>).</param>
    /// <param name="options">Protocol and connection count, passed on.</param>
    /// <param name="stop">Completes, with the signal's name, when this program is asked to stop: the child is killed.</param>
    /// <exception cref="IOException">The child failed; its error message is on stderr already.</exception>
    /// <exception cref="TimeoutException">The child took longer than 5 minutes and was killed.</exception>
    /// <exception cref="OperationCanceledException"><paramref name="stop"/> completed first, and the child was killed.</exception>
    public static async Task<SetResult> MeasureAsync(string set, IdleOptions options, Task<string> stop)
    {
        var host = Environment.ProcessPath ?? throw new IOException("the path of this program is unknown");
        var start = new ProcessStartInfo(host) { UseShellExecute = false, RedirectStandardOutput = true };
        // Started as "dotnet program.dll", the child needs the dll; started through the apphost, it does not.
        if (Path.GetFileNameWithoutExtension(host).Equals("dotnet", StringComparison.OrdinalIgnoreCase))
            start.ArgumentList.Add(Assembly.GetEntryAssembly()!.Location);
        foreach (var argument in new[] { "--protocol", options.Protocol, "-c", options.Connections.ToString(CultureInfo.InvariantCulture), "--phase", set })
            start.ArgumentList.Add(argument);

        using var process = Process.Start(start) ?? throw new IOException($"{host} did not start");
        var output = process.StandardOutput.ReadToEndAsync();
        var exited = process.WaitForExitAsync();
        var finished = await Task.WhenAny(exited, stop, Task.Delay(s_timeout)).ConfigureAwait(false);
        if (finished != exited)
        {
            process.Kill(entireProcessTree: true);
            if (finished == stop)
                throw new OperationCanceledException($"stopped by {await stop.ConfigureAwait(false)} while measuring '{set}'");
            throw new TimeoutException($"measuring '{set}' took longer than {s_timeout.TotalMinutes:0} minutes");
        }

        var text = await output.ConfigureAwait(false);
        if (process.ExitCode != 0)
            throw new IOException($"measuring '{set}' failed with exit code {process.ExitCode}");
        var line = text.Split('\n').LastOrDefault(l => l.StartsWith('{'))
            ?? throw new IOException($"measuring '{set}' printed no result");
        return Parse(line);
    }

    private static SetResult Parse(string json)
    {
        using var document = JsonDocument.Parse(json);
        var root = document.RootElement;
        return new SetResult(
            root.GetProperty("set").GetString()!,
            root.GetProperty("description").GetString()!,
            root.GetProperty("managed_bytes_per_connection").GetDouble(),
            root.GetProperty("working_set_bytes_per_connection").GetDouble());
    }
}
