using System;
using System.Threading.Tasks;

namespace NetCoreServer.Certificates.Tests.Support;

/// <summary>Awaits with a deadline whose failure message names what was expected.</summary>
internal static class Within
{
    public static readonly TimeSpan Default = TimeSpan.FromSeconds(20);

    public static async Task Await(Task task, string expected, TimeSpan? timeout = null)
    {
        TimeSpan limit = timeout ?? Default;
        try
        {
            await task.WaitAsync(limit).ConfigureAwait(false);
        }
        catch (TimeoutException)
        {
            throw new TimeoutException($"Timed out after {limit.TotalSeconds:0.#} s waiting for: {expected}");
        }
    }

    public static async Task<T> Await<T>(Task<T> task, string expected, TimeSpan? timeout = null)
    {
        await Await((Task)task, expected, timeout).ConfigureAwait(false);
        return await task.ConfigureAwait(false);
    }
}
