using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>
/// A secure WebSocket echo client; see <see cref="EchoClientLogic"/>. It counts as connected, and sends its messages,
/// once the TLS handshake and then the upgrade have completed, so a failure of either is a failed connect. Its hooks are
/// in EchoWsClientMembers.twin.cs.
/// </summary>
internal sealed partial class EchoWssClient : WssClient, IBenchmarkClient
{
    public EchoWssClient(SslContext context, string address, int port, EchoClientLogic echo)
        : base(context, address, port)
    {
        _echo = echo;
        // One delegate for the whole run, not one per message.
        _send = SendBinaryAsync;
        EchoClientLogic.Configure(this);
    }
}
