using System.Net.Sockets;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>An HTTPS server whose sessions answer TRACE with the request and <c>GET /fixed</c> with a short text.</summary>
internal sealed class EchoHttpsServer(SslContext context, string address, int port) : HttpsServer(context, address, port), IBenchmarkServer
{
    string IBenchmarkServer.ListeningOn => Endpoint.ToString() ?? $"{Address}:{Port}";

    protected override SslSession CreateSession() => new EchoHttpsSession(this);

    protected override void OnError(SocketError error) => EchoSessionLogic.ServerError(error);
}
