using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text;
using System.Text.RegularExpressions;
using System.Threading.Tasks;

namespace NetCoreServer.Package.Tests;

/// <summary>
/// A built program started with dotnet, its output collected line by line: a test awaits a line that matches, then
/// stops the program with SIGTERM (Ctrl+C's twin), as a user would. Disposing kills what is left.
/// </summary>
internal sealed class RunningProgram : IAsyncDisposable
{
    private readonly Process _process;
    private readonly object _lock = new();
    private readonly StringBuilder _output = new();
    private readonly List<(Regex Pattern, TaskCompletionSource<Match> Found)> _waiters = new();

    private RunningProgram(Process process)
    {
        _process = process;
    }

    /// <summary>Everything the program wrote so far, standard output and standard error interleaved.</summary>
    public string Output
    {
        get
        {
            lock (_lock)
                return _output.ToString();
        }
    }

    /// <summary>Starts <c>dotnet <paramref name="dll"/> <paramref name="arguments"/></c> in <paramref name="directory"/>.</summary>
    public static RunningProgram Start(string directory, string dll, params string[] arguments)
    {
        var process = new Process { StartInfo = Dotnet.StartInfo(directory, [dll, .. arguments]), EnableRaisingEvents = true };
        var program = new RunningProgram(process);
        process.OutputDataReceived += (_, line) => program.Received(line.Data);
        process.ErrorDataReceived += (_, line) => program.Received(line.Data);
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return program;
    }

    /// <summary>The first line (already written or still to come) that matches <paramref name="pattern"/>.</summary>
    public Task<Match> Line(string pattern)
    {
        var regex = new Regex(pattern);
        lock (_lock)
        {
            foreach (var line in _output.ToString().Split('\n'))
            {
                var match = regex.Match(line);
                if (match.Success)
                    return Task.FromResult(match);
            }
            var found = new TaskCompletionSource<Match>(TaskCreationOptions.RunContinuationsAsynchronously);
            _waiters.Add((regex, found));
            return found.Task;
        }
    }

    /// <summary>
    /// Sends SIGTERM and returns the exit code; on Windows, which has no SIGTERM to send, kills it and returns null.
    /// Throws TimeoutException when it does not exit in time.
    /// </summary>
    public async Task<int?> StopAsync(TimeSpan timeout)
    {
        if (!_process.HasExited)
        {
            if (OperatingSystem.IsWindows())
                _process.Kill(entireProcessTree: true);
            else if (kill(_process.Id, SigTerm) != 0)
                throw new InvalidOperationException($"kill -TERM {_process.Id} failed: errno {Marshal.GetLastPInvokeError()}");
        }
        try
        {
            await _process.WaitForExitAsync().WaitAsync(timeout);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException($"the program did not exit within {timeout.TotalSeconds} s of SIGTERM; output:\n{Output}");
        }
        return OperatingSystem.IsWindows() ? null : _process.ExitCode;
    }

    public async ValueTask DisposeAsync()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            await _process.WaitForExitAsync().WaitAsync(TimeSpan.FromSeconds(10)).ConfigureAwait(false);
        }
        _process.Dispose();
    }

    private void Received(string? line)
    {
        if (line is null)
            return;
        List<TaskCompletionSource<Match>>? ready = null;
        List<Match>? matches = null;
        lock (_lock)
        {
            _output.Append(line).Append('\n');
            for (var i = _waiters.Count - 1; i >= 0; i--)
            {
                var match = _waiters[i].Pattern.Match(line);
                if (!match.Success)
                    continue;
                (ready ??= new()).Add(_waiters[i].Found);
                (matches ??= new()).Add(match);
                _waiters.RemoveAt(i);
            }
        }
        for (var i = 0; i < (ready?.Count ?? 0); i++)
            ready![i].TrySetResult(matches![i]);
    }

    private const int SigTerm = 15;

    [DllImport("libc", SetLastError = true)]
    private static extern int kill(int pid, int signal);
}
