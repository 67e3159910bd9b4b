using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>The tcp echo client.</summary>
internal sealed class TcpEchoClientFactory : EchoClientFactory
{
    protected override IBenchmarkClient Create(EchoClientOptions options, EchoClientLogic echo)
        => new EchoTcpClient(options.Address, options.ResolvedPort, echo);
}
