using System;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;

namespace NetCoreServer.Redis.Tests;

/// <summary>
/// A real redis-server on a free loopback port, a child process of the test (never the system service): no
/// persistence, killed on dispose. <see cref="Kill"/> and <see cref="StartAsync"/> again restart it on the same port.
/// </summary>
internal sealed class RedisServerProcess : IDisposable
{
    private Process? _process;

    private RedisServerProcess(int port) => Port = port;

    public int Port { get; }

    public string Configuration => $"127.0.0.1:{Port}";

    public int ProcessId => _process?.Id ?? 0;

    /// <summary>A free port (bound, read back, released) where nothing listens yet.</summary>
    public static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }

    /// <summary>A server on a free port, not started.</summary>
    public static RedisServerProcess OnFreePort() => new(FreePort());

    /// <summary>Starts a server on a free port and waits until it accepts connections.</summary>
    public static async Task<RedisServerProcess> StartNewAsync()
    {
        var redis = OnFreePort();
        await redis.StartAsync();
        return redis;
    }

    /// <summary>Starts redis-server and waits (bounded) until its port accepts connections.</summary>
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
        _process.OutputDataReceived += (_, _) => { };
        _process.ErrorDataReceived += (_, _) => { };
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
        await Wait.Until(Accepts, $"redis-server accepting on port {Port}");
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

    private bool Accepts()
    {
        if (_process is { HasExited: true })
            throw new InvalidOperationException($"redis-server exited with {_process.ExitCode}");
        try
        {
            using var socket = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
            socket.Connect(IPAddress.Loopback, Port);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }
}
