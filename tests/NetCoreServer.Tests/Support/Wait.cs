using System;
using System.Threading.Tasks;

namespace NetCoreServer.Tests.Support;

/// <summary>Awaits with a deadline whose failure message names what was expected; no spin-waits.</summary>
internal static class Wait
{
    public static readonly TimeSpan Default = TimeSpan.FromSeconds(20);

    public static async Task For(Task task, string expected, TimeSpan? timeout = null)
    {
        try
        {
            await task.WaitAsync(timeout ?? Default).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException($"Timed out after {(timeout ?? Default).TotalSeconds:0.#} s waiting for: {expected}");
        }
    }

    public static async Task<T> For<T>(Task<T> task, string expected, TimeSpan? timeout = null)
    {
        await For((Task)task, expected, timeout).ConfigureAwait(false);
        return await task.ConfigureAwait(false);
    }
}
