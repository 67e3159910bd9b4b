using System;

namespace NetCoreServer.Performance.Common;

/// <summary>A benchmark server of any protocol, as <see cref="ServerHost"/> drives it.</summary>
public interface IBenchmarkServer : IDisposable
{
    /// <summary>Where the server listens, for the "listening on" line; meaningful after <see cref="Start"/>.</summary>
    string ListeningOn { get; }

    /// <summary>Starts listening (and any background work the benchmark needs); false when the server could not start.</summary>
    bool Start();

    /// <summary>Stops background work, then the server; every session is disconnected.</summary>
    bool Stop();
}
