using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>
/// Echo benchmark client: each of <c>-c</c> clients keeps <c>-m</c> messages of <c>-s</c> bytes in flight against an
/// echo server (tcp, ssl, uds or udp) for <c>-z</c> seconds; messages are counted as received bytes divided by the message size.
/// Over udp each message is one datagram; see <see cref="EchoUdpClient"/> for how lost ones are replaced and counted.
/// Over ws and wss each message is one binary WebSocket message, sent back by the server as one; over framed (tcp) each
/// is one length-prefixed message of -s bytes (header included) that the server receives and sends back whole, while
/// the client only returns bytes, as over tcp.
/// Over http and https each message is one TRACE request with a body of <c>-s</c> bytes, <c>-m</c> of them pipelined,
/// and its response; see <see cref="TraceClientLogic"/>.
/// </summary>
internal static class Program
{
    private static readonly ProtocolCatalog<ClientFactory<EchoClientOptions>> s_protocols = new ProtocolCatalog<ClientFactory<EchoClientOptions>>()
        .Add("tcp", options => EchoClientLogic.For(options, echo => new EchoTcpClient(options.Address, options.ResolvedPort, echo)))
        // tcp carrying -m messages of -s bytes, each a 4-byte big-endian length and its payload: the server frames them.
        .Add("framed", options => EchoClientLogic.For(options, echo => new EchoTcpClient(options.Address, options.ResolvedPort, echo), framed: true))
        .Add("ssl", options =>
        {
            var context = TlsContext(options);
            return EchoClientLogic.For(options, echo => new EchoSslClient(context, options.Address, options.ResolvedPort, echo));
        })
        .Add("uds", options => EchoClientLogic.For(options, echo => new EchoUdsClient(options.ResolvedPath, echo)))
        .Add("udp", options =>
        {
            // -m datagrams of -s bytes in flight per client, all sharing one message buffer (sending copies it).
            var message = EchoUdpClient.CreateMessage(options.Size);
            return meter => new EchoUdpClient(options.Address, options.ResolvedPort, options.Messages, message, meter);
        })
        .Add("ws", options => EchoClientLogic.For(options, echo => new EchoWsClient(options.Address, options.ResolvedPort, echo)))
        .Add("wss", options =>
        {
            var context = TlsContext(options);
            return EchoClientLogic.For(options, echo => new EchoWssClient(context, options.Address, options.ResolvedPort, echo));
        })
        .Add("http", options => TraceClientLogic.For(options, trace => new EchoHttpClient(options.Address, options.ResolvedPort, trace)))
        .Add("https", options =>
        {
            var context = TlsContext(options);
            return TraceClientLogic.For(options, trace => new EchoHttpsClient(context, options.Address, options.ResolvedPort, trace));
        });

    // One context for all clients, trusting the authority of --ca (see DevelopmentTls).
    private static SslContext TlsContext(EchoClientOptions options)
        => new(DevelopmentTls.ClientProtocols, DevelopmentTls.TrustAuthority(options.Authority));

    private static Task<int> Main(string[] args) => ClientHost.RunAsync(args, s_protocols, Common.Protocols.DefaultSocketPath("echo"));
}
