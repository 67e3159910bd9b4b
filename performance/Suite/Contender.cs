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

    /// <summary>KestrelServer: ASP.NET Core's Kestrel, what a .NET user would serve HTTP with instead.</summary>
    Kestrel,

    /// <summary>performance/ws-peer.js: the npm ws package on Node.js, a WebSocket server users know.</summary>
    NodeWs,
}
