using System.Net.Sockets;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>A TCP server whose sessions echo: chunks, or with a <c>Framing</c> (protocol framed) whole messages.</summary>
internal sealed class EchoTcpServer(string address, int port) : TcpServer(address, port), IBenchmarkServer
{
    string IBenchmarkServer.ListeningOn => Endpoint.ToString() ?? $"{Address}:{Port}";

    protected override TcpSession CreateSession() => Framing is null ? new EchoTcpSession(this) : new EchoFramedSession(this);

    protected override void OnError(SocketError error) => EchoSessionLogic.ServerError(error);
}
