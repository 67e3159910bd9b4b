using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>
/// Echo benchmark server: sends every received chunk back to its sender, over tcp, ssl or uds (<c>--protocol</c>),
/// every whole length-prefixed message to its sender as one such message over framed (tcp),
/// every datagram to its sender over udp, and every WebSocket message to its sender as one binary message over ws and
/// wss. Over http and https it answers NetCoreServer's trace round trip (TRACE gets the request back as
/// <c>message/http</c>) and <c>GET /fixed</c> with "Hello, World!", the two routes performance/KestrelServer serves too.
/// </summary>
internal static class Program
{
    private static readonly ProtocolCatalog<ServerFactory<ServerOptions>> s_protocols = new ProtocolCatalog<ServerFactory<ServerOptions>>()
        .Add("tcp", options => new EchoTcpServer(options.Address, options.ResolvedPort) { OptionEventLoops = Loops(options) })
        // tcp with 4-byte big-endian length prefixes: every whole message goes back as one message.
        .Add("framed", options => new EchoTcpServer(options.Address, options.ResolvedPort) { OptionEventLoops = Loops(options), Framing = MessageFraming.LengthPrefixed(4) })
        .Add("ssl", options => new EchoSslServer(TlsContext(options), options.Address, options.ResolvedPort) { OptionEventLoops = Loops(options) })
        .Add("uds", options => new EchoUdsServer(options.ResolvedPath) { OptionEventLoops = Loops(options) })
        .Add("udp", options => new EchoUdpServer(options.Address, options.ResolvedPort) { OptionReceiveThread = options.ReceiveThread })
        .Add("ws", options => new EchoWsServer(options.Address, options.ResolvedPort) { OptionEventLoops = Loops(options) })
        .Add("wss", options => new EchoWssServer(TlsContext(options), options.Address, options.ResolvedPort) { OptionEventLoops = Loops(options) })
        // Nagle off on the accepted sockets of http and https, as Kestrel sets it (performance/KestrelServer is their baseline).
        .Add("http", options => new EchoHttpServer(options.Address, options.ResolvedPort) { OptionNoDelay = true, OptionEventLoops = Loops(options) })
        .Add("https", options => new EchoHttpsServer(TlsContext(options), options.Address, options.ResolvedPort) { OptionNoDelay = true, OptionEventLoops = Loops(options) })
        // https offering h2 by ALPN (HTTP/1.1 clients still get HTTP/1.1); h2c needs nothing: "http" serves it.
        .Add("h2", options => new EchoHttpsServer(Http2Context(options), options.Address, options.ResolvedPort) { OptionNoDelay = true, OptionEventLoops = Loops(options) });

    // --event-loops: -1 (not given) keeps the library's default engine.
    private static int Loops(ServerOptions options) => options.EventLoops < 0 ? EventLoops.DefaultCount : options.EventLoops;

    // TLS 1.2 or 1.3 with the certificate of --cert (see DevelopmentTls).
    private static SslContext TlsContext(ServerOptions options)
        => new(DevelopmentTls.ServerProtocols, DevelopmentTls.LoadServerCertificate(options.Certificate, options.Password));

    private static SslContext Http2Context(ServerOptions options)
    {
        var context = TlsContext(options);
        context.ApplicationProtocols = [System.Net.Security.SslApplicationProtocol.Http2, System.Net.Security.SslApplicationProtocol.Http11];
        return context;
    }

    private static async Task<int> Main(string[] args)
    {
        using var meters = MeterSink.StartIfAsked();
        return await ServerHost.RunAsync(args, "Echo server", s_protocols, Common.Protocols.DefaultSocketPath("echo"));
    }
}
