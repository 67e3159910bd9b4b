using System.Net.Sockets;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>An HTTP server whose sessions answer TRACE with the request and <c>GET /fixed</c> with a short text.</summary>
internal sealed class EchoHttpServer(string address, int port) : HttpServer(address, port), IBenchmarkServer
{
    string IBenchmarkServer.ListeningOn => Endpoint.ToString() ?? $"{Address}:{Port}";

    protected override TcpSession CreateSession() => new EchoHttpSession(this);

    protected override void OnError(SocketError error) => EchoSessionLogic.ServerError(error);
}
