using System;
using System.Net;

namespace NetCoreServer.Stress;

/// <summary>What the scenarios need of a server, whatever its transport.</summary>
internal interface IStressServer : IDisposable
{
    EndPoint Endpoint { get; }

    long ConnectedSessions { get; }

    int OptionMaxSessions { get; set; }

    int OptionMaxSessionsPerAddress { get; set; }

    TimeSpan OptionIdleTimeout { get; set; }

    SlowConsumerPolicy OptionSlowConsumerPolicy { get; set; }

    bool Start();

    bool Stop();

    bool Restart();

    bool IsStarted { get; }

    bool Multicast(byte[] buffer);

    /// <summary>What the server's sessions and refusals counted.</summary>
    StressCounters Counters { get; }
}
