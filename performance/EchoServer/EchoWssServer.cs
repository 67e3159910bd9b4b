using System.Net.Sockets;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>A secure WebSocket server whose sessions send every message back as one binary message.</summary>
internal sealed class EchoWssServer(SslContext context, string address, int port) : WssServer(context, address, port), IBenchmarkServer
{
    string IBenchmarkServer.ListeningOn => Endpoint.ToString() ?? $"{Address}:{Port}";

    protected override SslSession CreateSession() => new EchoWssSession(this);

    protected override void OnError(SocketError error) => EchoSessionLogic.ServerError(error);
}
