using System.Net.Sockets;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>An HTTP echo session; see <see cref="EchoSessionLogic.Answer"/>. Pipelined requests are answered in order.</summary>
internal sealed class EchoHttpSession(HttpServer server) : HttpSession(server)
{
    protected override void OnReceivedRequest(HttpRequest request) => SendResponseAsync(EchoSessionLogic.Answer(request, Response));

    protected override void OnError(SocketError error) => EchoSessionLogic.Error(this, error);
}
