using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>The uds echo client, connecting to the socket file of <c>--path</c>.</summary>
internal sealed class UdsEchoClientFactory : EchoClientFactory
{
    protected override IBenchmarkClient Create(EchoClientOptions options, EchoClientLogic echo)
        => new EchoUdsClient(options.ResolvedPath, echo);
}
