using System;

namespace NetCoreServer.Performance.Suite;

/// <summary>What the suite can run for one protocol.</summary>
[Flags]
internal enum ProtocolTraits
{
    /// <summary>Nothing.</summary>
    None = 0,

    /// <summary>EchoServer and EchoClient implement it.</summary>
    Echo = 1,

    /// <summary>MulticastServer and MulticastClient implement it.</summary>
    Multicast = 2,

    /// <summary>RawEchoServer implements it: the raw .NET Socket echo baseline (SslStream over it for ssl).</summary>
    RawEcho = 4,

    /// <summary>echo_epoll serves it (tcp, or a Unix socket): the C echo reference.</summary>
    CEcho = 8,

    /// <summary>mcast_epoll serves it (tcp only): the C multicast reference.</summary>
    CMulticast = 16,

    /// <summary>echo_load and mcast_load speak it, so <c>--load c</c> applies.</summary>
    CLoad = 32,

    /// <summary>Its multicast sends to a group, which is allowed only inside a private network namespace.</summary>
    MulticastNeedsNamespace = 64,

    /// <summary>KestrelServer answers its echo (http, https: the TRACE round trip; ws, wss: each message sent back; h2c, h2: GET /fixed).</summary>
    KestrelEcho = 128,

    /// <summary>performance/ws-peer.js (npm ws) serves its echo and its multicast (ws, wss).</summary>
    NodeWsServer = 256,

    /// <summary><c>mcast_load -w</c> reads its multicast (ws: upgrade, then frames counted as bytes), so <c>--load c</c> applies to multicast.</summary>
    CWsMulticastLoad = 512,

    /// <summary>Its echo is h2load's <c>GET /fixed</c> over HTTP/2 (<see cref="H2LoadClient"/>), not EchoClient's.</summary>
    H2Load = 1024,
}
