using System;
using System.Diagnostics;
using System.Globalization;
using System.IO;
using System.Reflection;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>The parent side of one <see cref="ServerPhase"/> child: starts it, sends it commands and reads its answers.</summary>
internal sealed class ServerChild : IDisposable
{
    private readonly Process _process;

    private ServerChild(Process process, int port)
    {
        _process = process;
        Port = port;
    }

    /// <summary>The port the child's server listens on, on 127.0.0.1.</summary>
    public int Port { get; }

    /// <summary>Starts a child serving <paramref name="server"/> (library or raw) and waits for its port.</summary>
    /// <exception cref="IOException">The child did not start or printed no port.</exception>
    public static async Task<ServerChild> StartAsync(string server, int eventLoops, CancellationToken cancellationToken)
    {
        var host = Environment.ProcessPath ?? throw new IOException("the path of this program is unknown");
        var start = new ProcessStartInfo(host) { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardInput = true };
        // Started as "dotnet program.dll", the child needs the dll; started through the apphost, it does not.
        if (Path.GetFileNameWithoutExtension(host).Equals("dotnet", StringComparison.OrdinalIgnoreCase))
            start.ArgumentList.Add(Assembly.GetEntryAssembly()!.Location);
        start.ArgumentList.Add("--serve");
        start.ArgumentList.Add(server);
        // Not given (-1): the child keeps the library's default engine.
        if (eventLoops >= 0)
        {
            start.ArgumentList.Add("--event-loops");
            start.ArgumentList.Add(eventLoops.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }

        var process = Process.Start(start) ?? throw new IOException($"{host} did not start");
        try
        {
            var line = await process.StandardOutput.ReadLineAsync(cancellationToken).ConfigureAwait(false);
            if (line is null || !line.StartsWith("port ", StringComparison.Ordinal))
                throw new IOException($"the '{server}' server printed '{line}' instead of its port");
            return new ServerChild(process, int.Parse(line.AsSpan(5), CultureInfo.InvariantCulture));
        }
        catch
        {
            process.Kill(entireProcessTree: true);
            process.Dispose();
            throw;
        }
    }

    /// <summary>Returns once the server holds exactly <paramref name="connections"/> connections.</summary>
    public async Task WaitForAsync(int connections, CancellationToken cancellationToken)
    {
        var answer = await CommandAsync(string.Create(CultureInfo.InvariantCulture, $"wait {connections}"), cancellationToken).ConfigureAwait(false);
        if (answer != "ok")
            throw new IOException($"the server answered '{answer}' to a wait");
    }

    /// <summary>The server process's memory after a full collection.</summary>
    public async Task<MemorySnapshot> SnapshotAsync(CancellationToken cancellationToken)
    {
        var answer = await CommandAsync("snapshot", cancellationToken).ConfigureAwait(false);
        var parts = answer.Split(' ');
        if (parts.Length != 2)
            throw new IOException($"the server answered '{answer}' to a snapshot");
        return new MemorySnapshot(long.Parse(parts[0], CultureInfo.InvariantCulture), long.Parse(parts[1], CultureInfo.InvariantCulture));
    }

    /// <summary>Asks the child to stop and waits for it to exit.</summary>
    public async Task QuitAsync(CancellationToken cancellationToken)
    {
        await _process.StandardInput.WriteLineAsync("quit".AsMemory(), cancellationToken).ConfigureAwait(false);
        await _process.StandardInput.FlushAsync(cancellationToken).ConfigureAwait(false);
        await _process.WaitForExitAsync(cancellationToken).ConfigureAwait(false);
        if (_process.ExitCode != 0)
            throw new IOException($"the server exited with code {_process.ExitCode}");
    }

    public void Dispose()
    {
        if (!_process.HasExited)
            _process.Kill(entireProcessTree: true);
        _process.Dispose();
    }

    private async Task<string> CommandAsync(string command, CancellationToken cancellationToken)
    {
        await _process.StandardInput.WriteLineAsync(command.AsMemory(), cancellationToken).ConfigureAwait(false);
        await _process.StandardInput.FlushAsync(cancellationToken).ConfigureAwait(false);
        return await _process.StandardOutput.ReadLineAsync(cancellationToken).ConfigureAwait(false)
            ?? throw new IOException($"the server exited while answering '{command}'");
    }
}
