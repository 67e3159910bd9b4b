using System.Net.Sockets;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>A TLS server whose sessions echo.</summary>
internal sealed class EchoSslServer(SslContext context, string address, int port) : SslServer(context, address, port), IBenchmarkServer
{
    string IBenchmarkServer.ListeningOn => Endpoint.ToString() ?? $"{Address}:{Port}";

    protected override SslSession CreateSession() => new EchoSslSession(this);

    protected override void OnError(SocketError error) => EchoSessionLogic.ServerError(error);
}
