namespace NetCoreServer.Performance.Suite;

/// <summary>Which server a run measures.</summary>
internal enum Contender
{
    /// <summary>The library's EchoServer or MulticastServer.</summary>
    Ours,

    /// <summary>RawEchoServer: the same echo written directly on .NET's Socket.</summary>
    Raw,

    /// <summary>echo_epoll or mcast_epoll: a plain C epoll loop, the practical ceiling here.</summary>
    C,
}
