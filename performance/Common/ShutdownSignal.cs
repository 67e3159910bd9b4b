using System;
using System.Runtime.InteropServices;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.Common;

/// <summary>
/// Turns Ctrl+C (SIGINT), SIGTERM and SIGQUIT into a task, and cancels the default termination so that the
/// program can stop its server and leave <c>Main</c> normally with exit code 0.
/// </summary>
public sealed class ShutdownSignal : IDisposable
{
    private readonly TaskCompletionSource<string> _signalled = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly PosixSignalRegistration[] _registrations;

    /// <summary>Registers the handlers; they stay until <see cref="Dispose"/>.</summary>
    public ShutdownSignal()
    {
        _registrations = OperatingSystem.IsWindows()
            ? [PosixSignalRegistration.Create(PosixSignal.SIGINT, Handle), PosixSignalRegistration.Create(PosixSignal.SIGTERM, Handle)]
            : [
                PosixSignalRegistration.Create(PosixSignal.SIGINT, Handle),
                PosixSignalRegistration.Create(PosixSignal.SIGTERM, Handle),
                PosixSignalRegistration.Create(PosixSignal.SIGQUIT, Handle),
            ];
    }

    /// <summary>Completes with the signal's name once one arrived.</summary>
    public Task<string> Signalled => _signalled.Task;

    /// <summary>Waits for a signal, at most <paramref name="timeout"/> (<see cref="Timeout.InfiniteTimeSpan"/> for no bound); true when a signal came.</summary>
    public async Task<bool> WaitAsync(TimeSpan timeout)
    {
        if (timeout == Timeout.InfiniteTimeSpan)
        {
            await _signalled.Task.ConfigureAwait(false);
            return true;
        }

        var finished = await Task.WhenAny(_signalled.Task, Task.Delay(timeout)).ConfigureAwait(false);
        return finished == _signalled.Task;
    }

    /// <summary>Removes the handlers; a later signal has its default effect again.</summary>
    public void Dispose()
    {
        foreach (var registration in _registrations)
            registration.Dispose();
    }

    private void Handle(PosixSignalContext context)
    {
        context.Cancel = true;
        _signalled.TrySetResult(context.Signal.ToString());
    }
}
