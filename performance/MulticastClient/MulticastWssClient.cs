using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastClient;

/// <summary>
/// Only receives secure WebSocket messages, and counts their payload bytes. It counts as connected once the TLS
/// handshake and the upgrade have completed, so a failure of either is a failed connect. Its hooks are in
/// MulticastWsClientMembers.twin.cs.
/// </summary>
internal sealed partial class MulticastWssClient : WssClient, IBenchmarkClient
{
    public MulticastWssClient(SslContext context, string address, int port, ConnectionMeter meter)
        : base(context, address, port) => _meter = meter;
}
