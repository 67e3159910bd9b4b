using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>
/// A WebSocket echo client; see <see cref="EchoClientLogic"/>. It counts as connected, and sends its messages, once
/// the upgrade has been accepted, so a refused upgrade is a failed connect. Its hooks are in EchoWsClientMembers.twin.cs.
/// </summary>
internal sealed partial class EchoWsClient : WsClient, IBenchmarkClient
{
    public EchoWsClient(string address, int port, EchoClientLogic echo)
        : base(address, port)
    {
        _echo = echo;
        // One delegate for the whole run, not one per message.
        _send = SendBinaryAsync;
        EchoClientLogic.Configure(this);
    }
}
