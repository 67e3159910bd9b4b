using System.Net.Sockets;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>A WebSocket server whose sessions send every message back as one binary message.</summary>
internal sealed class EchoWsServer(string address, int port) : WsServer(address, port), IBenchmarkServer
{
    string IBenchmarkServer.ListeningOn => Endpoint.ToString() ?? $"{Address}:{Port}";

    protected override TcpSession CreateSession() => new EchoWsSession(this);

    protected override void OnError(SocketError error) => EchoSessionLogic.ServerError(error);
}
