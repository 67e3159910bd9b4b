using System.Net.Sockets;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>An HTTPS echo session; see <see cref="EchoSessionLogic.Answer"/>. Requests arrive after the handshake.</summary>
internal sealed class EchoHttpsSession(HttpsServer server) : HttpsSession(server)
{
    protected override void OnReceivedRequest(HttpRequest request) => SendResponseAsync(EchoSessionLogic.Answer(request, Response));

    protected override void OnError(SocketError error) => EchoSessionLogic.Error(this, error);
}
