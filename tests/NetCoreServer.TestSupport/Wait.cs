using System;
using System.Threading.Tasks;

namespace NetCoreServer.Testing;

/// <summary>
/// Awaits with a deadline whose failure message names what was expected; no spin-waits, and polling (<see cref="Until"/>)
/// only for a state that no event reports.
/// </summary>
public static class Wait
{
    /// <summary>The deadline when a test gives none: long enough for a loaded shared machine.</summary>
    public static readonly TimeSpan Default = TimeSpan.FromSeconds(20);

    /// <summary>Awaits <paramref name="task"/>; throws <see cref="TimeoutException"/> naming <paramref name="expected"/> when late.</summary>
    public static async Task For(Task task, string expected, TimeSpan? timeout = null)
    {
        var limit = timeout ?? Default;
        try
        {
            await task.WaitAsync(limit).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException($"Timed out after {limit.TotalSeconds:0.#} s waiting for: {expected}");
        }
    }

    /// <summary>Awaits <paramref name="task"/> and returns its result; throws <see cref="TimeoutException"/> when late.</summary>
    public static async Task<T> For<T>(Task<T> task, string expected, TimeSpan? timeout = null)
    {
        await For((Task)task, expected, timeout).ConfigureAwait(false);
        return await task.ConfigureAwait(false);
    }

    /// <summary>True when the task completed in time; for waits whose outcome the test inspects itself.</summary>
    public static async Task<bool> Within(Task task, TimeSpan timeout)
        => await Task.WhenAny(task, Task.Delay(timeout)).ConfigureAwait(false) == task;

    /// <summary>
    /// Polls <paramref name="condition"/> every 10 ms until it holds; throws <see cref="TimeoutException"/> naming
    /// <paramref name="expected"/> when late. For state that changes after the last hook a test can await (a server
    /// unregisters a session after its OnDisconnected hooks, as NetCoreServer does).
    /// </summary>
    public static async Task Until(Func<bool> condition, string expected, TimeSpan? timeout = null)
    {
        var limit = timeout ?? Default;
        var deadline = DateTime.UtcNow + limit;
        while (!condition())
        {
            if (DateTime.UtcNow > deadline)
                throw new TimeoutException($"Timed out after {limit.TotalSeconds:0.#} s waiting for: {expected}");
            await Task.Delay(10).ConfigureAwait(false);
        }
    }
}
