using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>
/// Only receives WebSocket messages, and counts their payload bytes. It counts as connected once the upgrade has
/// been accepted, so a refused upgrade is a failed connect. Its hooks are in MulticastWsClientMembers.twin.cs.
/// </summary>
internal sealed partial class MulticastWsClient : WsClient, IBenchmarkClient
{
    public MulticastWsClient(string address, int port, ConnectionMeter meter)
        : base(address, port) => _meter = meter;
}
