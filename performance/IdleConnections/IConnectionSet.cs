using System;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>
/// A listener and the connections opened to it, both ends in this process: what <see cref="Measurement"/> measures.
/// Every method is called from one thread at a time.
/// </summary>
internal interface IConnectionSet : IAsyncDisposable
{
    /// <summary>What one connection of this set is, for the report: which objects hold each end.</summary>
    string Description { get; }

    /// <summary>Starts listening on 127.0.0.1, on a port the system picks.</summary>
    void Start();

    /// <summary>
    /// Opens <paramref name="count"/> more connections and returns once every one is ready on both ends (for TLS, the
    /// handshake completed on both) and waits for data.
    /// </summary>
    Task OpenAsync(int count, CancellationToken cancellationToken);

    /// <summary>Closes every connection and returns once both ends are gone.</summary>
    Task CloseAllAsync(CancellationToken cancellationToken);
}
