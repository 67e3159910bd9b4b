using System;

namespace NetCoreServer.Performance.IdleConnections;

/// <summary>The library server of a <see cref="LibrarySet"/>, tcp or ssl: its default sessions, counted as they become ready.</summary>
internal interface IIdleServer : IDisposable
{
    /// <summary>Sessions that became ready since the start (for ssl, that completed the handshake); never decreases.</summary>
    long ReadySessions { get; }

    /// <summary>Sessions registered now.</summary>
    long ConnectedSessions { get; }

    /// <summary>The port listened on, once started.</summary>
    int BoundPort { get; }

    /// <summary>Starts listening.</summary>
    bool Start();

    /// <summary>Stops listening and disconnects every session.</summary>
    bool Stop();
}
