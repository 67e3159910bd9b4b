using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Text.RegularExpressions;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Tests.Support;

/// <summary>
/// A program the test runs beside itself (a server, a browser driver): its output is read line by line as it comes,
/// a test awaits the line it needs (bounded, see <see cref="WaitForLine"/>), and the whole process tree is killed
/// when disposed. Standard output and standard error are kept together, in order of arrival, for failure messages.
/// </summary>
internal sealed class ChildProcess : IDisposable
{
    private static readonly TimeSpan s_killTimeout = TimeSpan.FromSeconds(10);

    private readonly Process _process;
    private readonly object _gate = new();
    private readonly List<string> _lines = [];
    private readonly List<(Regex Pattern, TaskCompletionSource<Match> Seen)> _waiters = [];
    private readonly TaskCompletionSource<int> _exited = new(TaskCreationOptions.RunContinuationsAsynchronously);

    private ChildProcess(Process process, string name)
    {
        _process = process;
        Name = name;
    }

    /// <summary>What the test calls it in messages, such as "the ws echo server".</summary>
    public string Name { get; }

    /// <summary>Everything it printed so far, for failure messages.</summary>
    public string Output
    {
        get
        {
            lock (_gate)
                return string.Join(Environment.NewLine, _lines);
        }
    }

    /// <summary>Completes with the exit code when the process has exited.</summary>
    public Task<int> Exited => _exited.Task;

    /// <summary>Starts <paramref name="info"/> (whose redirections are set here) and starts reading its output.</summary>
    public static ChildProcess Start(ProcessStartInfo info, string name)
    {
        if (TestLeg.IsQuick)
            Assert.Ignore($"{name}: no processes in the quick leg");
        info.RedirectStandardInput = true;
        info.RedirectStandardOutput = true;
        info.RedirectStandardError = true;
        info.UseShellExecute = false;
        var process = new Process { StartInfo = info, EnableRaisingEvents = true };
        var child = new ChildProcess(process, name);
        process.OutputDataReceived += (_, line) => child.Add(line.Data);
        process.ErrorDataReceived += (_, line) => child.Add(line.Data);
        process.Exited += (_, _) => child.OnExited();
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        return child;
    }

    /// <summary>Starts <paramref name="program"/> with <paramref name="arguments"/>.</summary>
    public static ChildProcess Start(string program, IEnumerable<string> arguments, string name)
    {
        var info = new ProcessStartInfo(program);
        foreach (var argument in arguments)
            info.ArgumentList.Add(argument);
        return Start(info, name);
    }

    /// <summary>
    /// Waits, at most <paramref name="timeout"/> (<see cref="Wait.Default"/> when null), for a line matching
    /// <paramref name="pattern"/>, printed before or after the call; fails naming <paramref name="expected"/> and
    /// showing the output when it is late or the process exits without it.
    /// </summary>
    public async Task<Match> WaitForLine(string pattern, string expected, TimeSpan? timeout = null)
    {
        var regex = new Regex(pattern, RegexOptions.CultureInvariant);
        var seen = new TaskCompletionSource<Match>(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_gate)
        {
            var match = _lines.Select(line => regex.Match(line)).FirstOrDefault(candidate => candidate.Success);
            if (match is not null)
                return match;
            if (_exited.Task.IsCompleted)
                throw new InvalidOperationException($"{Name} exited ({_exited.Task.Result}) without printing {expected}; it printed:{Environment.NewLine}{Output}");
            _waiters.Add((regex, seen));
        }
        try
        {
            return await Wait.For(seen.Task, $"{expected} from {Name}", timeout);
        }
        catch (TimeoutException exception)
        {
            throw new TimeoutException($"{exception.Message}; it printed:{Environment.NewLine}{Output}", exception);
        }
    }

    /// <summary>Waits, at most <paramref name="timeout"/>, until the process has exited by itself; returns its exit code.</summary>
    public async Task<int> WaitForExit(string expected, TimeSpan? timeout = null)
    {
        try
        {
            return await Wait.For(_exited.Task, $"{Name} to exit: {expected}", timeout);
        }
        catch (TimeoutException exception)
        {
            throw new TimeoutException($"{exception.Message}; it printed:{Environment.NewLine}{Output}", exception);
        }
    }

    /// <summary>Kills the whole process tree and waits, bounded, until it is gone; nothing happens when it has already exited.</summary>
    public void Kill()
    {
        try
        {
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
                _process.WaitForExit(s_killTimeout);
            }
        }
        catch (InvalidOperationException)
        {
            // Never started, or already reaped.
        }
    }

    /// <summary>Kills the process tree (see <see cref="Kill"/>) and releases the process.</summary>
    public void Dispose()
    {
        Kill();
        // The exit handler may still be reading the exit code; it finishes before the process is released.
        _exited.Task.Wait(s_killTimeout);
        _process.Dispose();
    }

    private void Add(string? line)
    {
        if (line is null)
            return;
        lock (_gate)
        {
            _lines.Add(line);
            for (var i = _waiters.Count - 1; i >= 0; i--)
            {
                var match = _waiters[i].Pattern.Match(line);
                if (!match.Success)
                    continue;
                _waiters[i].Seen.TrySetResult(match);
                _waiters.RemoveAt(i);
            }
        }
    }

    private void OnExited()
    {
        // The last lines may still be on their way: WaitForExit on the process drains both readers first.
        _process.WaitForExit();
        int code;
        List<(Regex Pattern, TaskCompletionSource<Match> Seen)> waiting;
        lock (_gate)
        {
            code = _process.ExitCode;
            waiting = [.. _waiters];
            _waiters.Clear();
        }
        foreach (var (_, seen) in waiting)
            seen.TrySetException(new InvalidOperationException($"{Name} exited ({code}); it printed:{Environment.NewLine}{Output}"));
        _exited.TrySetResult(code);
    }
}
