using System;
using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;

namespace NetCoreServer.Examples;

/// <summary>
/// Console input as a sequence of commands. The sequence ends on an empty line, at the end of input
/// (stdin closed or fed from a file) and on SIGINT or SIGTERM, so every way of quitting takes the same
/// path through <c>Main</c> and the server stops (or the client disconnects) cleanly.
/// </summary>
/// <remarks>Create one per process, before the first line is printed: it owns the SIGINT and SIGTERM handlers until
/// disposed, and a script that signals the process as soon as it sees a line must find them in place.</remarks>
public sealed class ConsoleCommands : IDisposable
{
    private readonly Channel<string> _lines = Channel.CreateUnbounded<string>(new UnboundedChannelOptions { SingleReader = true });
    private readonly PosixSignalRegistration _terminate;
    private readonly PosixSignalRegistration _interrupt;

    /// <summary>Starts reading console lines and handling SIGINT and SIGTERM.</summary>
    public ConsoleCommands()
    {
        _terminate = PosixSignalRegistration.Create(PosixSignal.SIGTERM, OnSignal);
        _interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, OnSignal);
        // Console.ReadLine cannot be cancelled, so it blocks a background thread that never holds the process open.
        var reader = new Thread(ReadLines) { IsBackground = true, Name = "Console input" };
        reader.Start();
    }

    /// <summary>Returns the next non-empty line, or null when it is time to quit.</summary>
    /// <returns>The line without its line ending, or null.</returns>
    public async Task<string?> ReadAsync()
    {
        while (await _lines.Reader.WaitToReadAsync().ConfigureAwait(false))
        {
            if (_lines.Reader.TryRead(out var line))
                return line;
        }
        return null;
    }

    /// <summary>Gives SIGINT and SIGTERM back to the runtime's default handling.</summary>
    public void Dispose()
    {
        _terminate.Dispose();
        _interrupt.Dispose();
    }

    private void ReadLines()
    {
        string? line;
        while (!string.IsNullOrEmpty(line = Console.ReadLine()))
            _lines.Writer.TryWrite(line);
        _lines.Writer.TryComplete();
    }

    private void OnSignal(PosixSignalContext context)
    {
        // Without this the runtime ends the process as soon as the handler returns, before Main has cleaned up.
        context.Cancel = true;
        _lines.Writer.TryComplete();
    }
}
