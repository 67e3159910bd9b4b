using System.Net.Sockets;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>A TCP server whose sessions echo.</summary>
internal sealed class EchoTcpServer(string address, int port) : TcpServer(address, port), IBenchmarkServer
{
    string IBenchmarkServer.ListeningOn => Endpoint.ToString() ?? $"{Address}:{Port}";

    protected override TcpSession CreateSession() => new EchoTcpSession(this);

    protected override void OnError(SocketError error) => EchoSessionLogic.ServerError(error);
}
