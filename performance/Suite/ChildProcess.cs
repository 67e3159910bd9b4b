using System;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.Suite;

/// <summary>
/// A program the suite starts (a server or a load client), with its output lines kept, a bounded wait for a line, a
/// bounded SIGTERM-then-kill stop, and its CPU time read from /proc while it runs.
/// </summary>
internal sealed class ChildProcess : IDisposable
{
    // /proc/PID/stat counts in clock ticks, which are 100 per second on every Linux this runs on (USER_HZ).
    private const double TicksPerSecond = 100.0;

    private readonly Process _process;
    private readonly ConcurrentQueue<string> _lines = new();
    private readonly TaskCompletionSource _exited = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private Func<string, bool>? _awaited;
    private TaskCompletionSource<string>? _match;

    private ChildProcess(Process process) => _process = process;

    /// <summary>What it printed so far, stdout and stderr mixed, for messages.</summary>
    public string Output => string.Join(Environment.NewLine, _lines);

    /// <summary>Every line it printed so far.</summary>
    public string[] Lines => _lines.ToArray();

    /// <summary>Completes when the process has exited and its output is read.</summary>
    public Task Exited => _exited.Task;

    /// <summary>Its exit code; meaningful once <see cref="Exited"/> completed.</summary>
    public int ExitCode => _process.ExitCode;

    /// <summary>Starts <paramref name="file"/> with <paramref name="arguments"/>.</summary>
    public static ChildProcess Start(string file, params string[] arguments)
    {
        var info = new ProcessStartInfo(file)
        {
            RedirectStandardInput = true,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in arguments)
            info.ArgumentList.Add(argument);
        info.Environment["DOTNET_NOLOGO"] = "1";
        info.Environment["DOTNET_CLI_TELEMETRY_OPTOUT"] = "1";

        var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        var child = new ChildProcess(process);
        var open = 2;
        void Line(string? line)
        {
            if (line is null)
            {
                if (System.Threading.Interlocked.Decrement(ref open) == 0)
                    process.WaitForExitAsync().ContinueWith(_ => child._exited.TrySetResult(), TaskScheduler.Default);
                return;
            }
            child._lines.Enqueue(line);
            if (child._awaited is { } awaited && awaited(line))
                child._match?.TrySetResult(line);
        }
        process.OutputDataReceived += (_, e) => Line(e.Data);
        process.ErrorDataReceived += (_, e) => Line(e.Data);
        if (!process.Start())
            throw new InvalidOperationException($"{file} did not start");
        process.StandardInput.Close();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return child;
    }

    /// <summary>Waits for a line that <paramref name="match"/> accepts; null when the process exited or the time ran out first.</summary>
    public async Task<string?> WaitForLineAsync(Func<string, bool> match, TimeSpan timeout)
    {
        var found = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
        _match = found;
        _awaited = match;
        // A line that came before the wait was set up.
        if (_lines.FirstOrDefault(match) is { } early)
            found.TrySetResult(early);
        var first = await Task.WhenAny(found.Task, _exited.Task, Task.Delay(timeout)).ConfigureAwait(false);
        _awaited = null;
        return first == found.Task ? found.Task.Result : null;
    }

    /// <summary>Waits for the process to exit by itself; false when <paramref name="timeout"/> passed first (it is then killed).</summary>
    public async Task<bool> WaitForExitAsync(TimeSpan timeout)
    {
        if (await Task.WhenAny(_exited.Task, Task.Delay(timeout)).ConfigureAwait(false) == _exited.Task)
            return true;
        Kill();
        return false;
    }

    /// <summary>Sends SIGTERM and waits for the exit; kills the process tree after <paramref name="timeout"/>. True when it stopped by itself.</summary>
    public async Task<bool> StopAsync(TimeSpan timeout)
    {
        if (_exited.Task.IsCompleted)
            return true;
        Native.Kill(_process.Id, Native.SigTerm);
        return await WaitForExitAsync(timeout).ConfigureAwait(false);
    }

    /// <summary>User plus system CPU seconds the process used so far; null once it is gone.</summary>
    public double? CpuSeconds()
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{_process.Id}/stat");
            // The command name (field 2) is in parentheses and may hold spaces; utime and stime are fields 14 and 15.
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return (long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture)) / TicksPerSecond;
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException)
        {
            return null;
        }
    }

    /// <summary>Kills the process tree if it still runs.</summary>
    public void Kill()
    {
        try
        {
            if (!_process.HasExited)
                _process.Kill(entireProcessTree: true);
        }
        catch (InvalidOperationException)
        {
            // It exited in between.
        }
    }

    public void Dispose()
    {
        Kill();
        _process.Dispose();
    }
}
