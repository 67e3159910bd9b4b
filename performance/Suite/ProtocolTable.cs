using System.Collections.Generic;
using System.Linq;
using static NetCoreServer.Performance.Suite.ProtocolTraits;

namespace NetCoreServer.Performance.Suite;

/// <summary>
/// Every protocol the suite runs, in the order of the table. A protocol the benchmark programs (EchoServer,
/// EchoClient, MulticastServer, MulticastClient) learn is one more line here.
/// </summary>
internal static class ProtocolTable
{
    // Echo messages in flight per client: 1000 on streams, as NetCoreServer's benchmarks do; 10 datagrams over udp (100
    // clients with 100 each overflowed the server's kernel receive buffer, which Linux caps at net.core.rmem_max, and
    // most of every window was lost); 100 pipelined requests over http(s); 10 concurrent streams over h2c and h2.
    public static IReadOnlyList<ProtocolEntry> All { get; } =
    [
        new("tcp", Echo | Multicast | RawEcho | CEcho | CMulticast | CLoad, 1000),
        // tcp with 4-byte big-endian length prefixes (MessageFraming.LengthPrefixed(4)) on both sides, beside tcp in the
        // chart: what per-message framing costs against raw bytes. No baseline of its own: the raw servers speak no framing.
        new("framed", Echo | Multicast, 1000),
        new("ssl", Echo | Multicast | RawEcho, 1000),
        new("uds", Echo | Multicast | RawEcho | CEcho | CLoad, 1000),
        new("udp", Echo | Multicast | RawEcho | MulticastNeedsNamespace, 10),
        // The same, our server with OptionReceiveThread (a socket served by a thread of its own).
        new("udp-thread", Echo | RawEcho, 10) { Transport = "udp", ServerOptions = ["--receive-thread"] },
        // tcp and uds echo with the runtime's inline socket completions on one socket engine thread (see
        // docs/guides/event-loops.md), for ours and the raw server alike: a single-threaded server, as the C reference is.
        new("tcp-inline", Echo | RawEcho | CEcho | CLoad, 1000) { Transport = "tcp", RuntimeOptions = Inline },
        new("uds-inline", Echo | RawEcho | CEcho | CLoad, 1000) { Transport = "uds", RuntimeOptions = Inline },
        // Our server's sessions on one of the library's own epoll event loops (OptionEventLoops = 1); the raw server in
        // its best mode as above (the loops serve no accept, so ours gets the same runtime settings).
        new("tcp-loops", Echo | Multicast | RawEcho | CEcho | CMulticast | CLoad, 1000) { Transport = "tcp", RuntimeOptions = Inline, ServerOptions = Loops },
        new("uds-loops", Echo | RawEcho | CEcho | CLoad, 1000) { Transport = "uds", RuntimeOptions = Inline, ServerOptions = Loops },
        // Our server on the runtime's thread pool (OptionEventLoops = 0), beside the default engine (a loop per core on Linux).
        new("tcp-pool", Echo | CEcho | CLoad, 1000) { Transport = "tcp", ServerOptions = Pool },
        new("http", Echo | KestrelEcho, 100),
        new("https", Echo | KestrelEcho, 100),
        new("http-pool", Echo, 100) { Transport = "http", ServerOptions = Pool },
        new("https-pool", Echo, 100) { Transport = "https", ServerOptions = Pool },
        // HTTP/2: h2load's GET /fixed, 10 streams in flight on each connection (the issue's -c 100 -m 10), against
        // Kestrel serving the same route over HTTP/2. Ours serves h2c on its http protocol (prior knowledge, chosen on
        // the first bytes) and h2 over TLS by ALPN; Kestrel takes h2c and h2.
        new("h2c", Echo | KestrelEcho | H2Load, 10) { Transport = "http", KestrelProtocol = "h2c" },
        new("h2", Echo | KestrelEcho | H2Load, 10),
        new("ws", Echo | Multicast | KestrelEcho | NodeWsServer | CWsMulticastLoad, 1000),
        new("wss", Echo | Multicast | KestrelEcho | NodeWsServer, 1000),
    ];

    private static string[] Inline => ["--inline-completions", "--socket-threads", "1"];

    private static string[] Loops => ["--event-loops", "1"];

    private static string[] Pool => ["--event-loops", "0"];

    /// <summary>The entry named <paramref name="name"/>, or null.</summary>
    public static ProtocolEntry? Find(string name) => All.FirstOrDefault(entry => entry.Name == name);
}
