using System;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.Common;

/// <summary>One benchmark connection of any protocol, as <see cref="ClientHost"/> drives it.</summary>
public interface IBenchmarkClient : IDisposable
{
    /// <summary>
    /// Starts connecting without waiting; the outcome arrives through the client's <see cref="ConnectionMeter"/>.
    /// False when the attempt could not even start.
    /// </summary>
    bool StartConnecting();

    /// <summary>Disconnects; the task completes once the connection is closed.</summary>
    Task StopAsync();
}
