using System.Net.Sockets;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>A Unix domain socket server whose sessions echo.</summary>
internal sealed class EchoUdsServer(string path) : UdsServer(path), IBenchmarkServer
{
    string IBenchmarkServer.ListeningOn => Path;

    protected override UdsSession CreateSession() => new EchoUdsSession(this);

    protected override void OnError(SocketError error) => EchoSessionLogic.ServerError(error);
}
