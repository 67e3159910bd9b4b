using System;
using System.Threading.Tasks;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests.Support;

/// <summary>Bounded waits whose failure message says what was expected.</summary>
internal static class Wait
{
    public static readonly TimeSpan Default = TimeSpan.FromSeconds(10);

    public static async Task For(Task task, string what, TimeSpan? timeout = null)
    {
        var limit = timeout ?? Default;
        try
        {
            await task.WaitAsync(limit);
        }
        catch (TimeoutException)
        {
            Assert.Fail($"timed out after {limit.TotalSeconds} s waiting for {what}");
        }
    }

    public static async Task<T> For<T>(Task<T> task, string what, TimeSpan? timeout = null)
    {
        await For((Task)task, what, timeout);
        return await task;
    }

    /// <summary>True when the task completed in time; for waits whose outcome the test inspects itself.</summary>
    public static async Task<bool> Within(Task task, TimeSpan timeout)
        => await Task.WhenAny(task, Task.Delay(timeout)) == task;
}
