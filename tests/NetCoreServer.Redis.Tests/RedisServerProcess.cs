using System;
using System.Collections.Concurrent;
using System.Diagnostics;
using System.Threading.Tasks;

namespace NetCoreServer.Redis.Tests;

/// <summary>
/// A real redis-server on a free loopback port, a child process of the test (never the system service): no
/// persistence, killed on dispose. <see cref="Kill"/> and <see cref="StartAsync"/> again restart it on the same port.
/// </summary>
internal sealed class RedisServerProcess : IDisposable
{
    private readonly ConcurrentQueue<string> _output = new();
    private Process? _process;
    private volatile bool _ready;

    private RedisServerProcess(int port) => Port = port;

    public int Port { get; }

    public string Configuration => $"127.0.0.1:{Port}";

    public int ProcessId => _process?.Id ?? 0;

    /// <summary>A free port where nothing listens yet (see <see cref="LoopbackPorts"/>).</summary>
    public static int FreePort() => LoopbackPorts.Free();

    /// <summary>A server on a free port, not started.</summary>
    public static RedisServerProcess OnFreePort() => new(FreePort());

    /// <summary>A server on <paramref name="port"/>, not started.</summary>
    public static RedisServerProcess OnPort(int port) => new(port);

    /// <summary>
    /// Starts a server on a free port and waits until it accepts connections; on another port when the first was taken
    /// between the check and redis-server's bind (two fixtures side by side drew the same one).
    /// </summary>
    public static async Task<RedisServerProcess> StartNewAsync()
    {
        for (var attempt = 1; ; attempt++)
        {
            var redis = OnFreePort();
            try
            {
                await redis.StartAsync();
                return redis;
            }
            catch (InvalidOperationException taken) when (attempt < 5 && taken.Message.Contains("Address already in use", StringComparison.Ordinal))
            {
                redis.Dispose();
            }
        }
    }

    /// <summary>Starts redis-server and waits (bounded) until it says it accepts connections; throws when it exits first.</summary>
    public async Task StartAsync()
    {
        var path = ExternalTool.Require("redis-server");
        var info = new ProcessStartInfo(path)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var argument in new[] { "--port", Port.ToString(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no" })
            info.ArgumentList.Add(argument);
        _process = Process.Start(info) ?? throw new InvalidOperationException("redis-server did not start");
        _output.Clear();
        _ready = false;
        _process.OutputDataReceived += (_, e) => Keep(e.Data);
        _process.ErrorDataReceived += (_, e) => Keep(e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
        // Its own word, not a connect: a connect would also succeed to another process that took the port first.
        await Wait.Until(Ready, $"redis-server ready on port {Port}");
    }

    /// <summary>Kills the server at once (no shutdown), as a crash would, and waits for it to exit.</summary>
    public void Kill()
    {
        var process = _process;
        _process = null;
        if (process == null)
            return;
        try
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit(10_000);
        }
        catch (InvalidOperationException)
        {
            // Exited already.
        }
        process.Dispose();
    }

    /// <summary>Stops (SIGSTOP) or resumes (SIGCONT) the server: a Redis that is connected but does not answer.</summary>
    public void Signal(bool pause)
    {
        using var kill = Process.Start("kill", new[] { pause ? "-STOP" : "-CONT", ProcessId.ToString() });
        kill.WaitForExit(10_000);
    }

    public void Dispose() => Kill();

    private bool Ready()
    {
        if (_process is { HasExited: true })
        {
            _process.WaitForExit(); // the rest of its output
            throw new InvalidOperationException($"redis-server on port {Port} exited with {_process.ExitCode}: {LastOutput()}");
        }
        return _ready;
    }

    private void Keep(string? line)
    {
        if (line == null)
            return;
        if (line.Contains("Ready to accept connections", StringComparison.Ordinal))
            _ready = true;
        _output.Enqueue(line);
        while (_output.Count > 20)
            _output.TryDequeue(out _);
    }

    private string LastOutput() => string.Join(" | ", _output);
}
