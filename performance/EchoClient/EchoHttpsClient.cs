using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>
/// An HTTPS trace client; see <see cref="TraceClientLogic"/>. It counts as connected, and sends its window, once the
/// handshake has completed, so a failed handshake is a failed connect.
/// </summary>
internal sealed class EchoHttpsClient : HttpsClient, IBenchmarkClient
{
    private readonly TraceClientLogic _trace;

    public EchoHttpsClient(SslContext context, string address, int port, TraceClientLogic trace)
        : base(context, address, port)
    {
        _trace = trace;
        trace.Attach(this, SendRequestAsync);
    }

    bool IBenchmarkClient.StartConnecting() => ConnectAsync();

    Task IBenchmarkClient.StopAsync() => DisconnectAndWaitAsync();

    protected override void OnHandshaked() => _trace.Ready();

    protected override void OnReceivedResponse(HttpResponse response) => _trace.Answered(response);

    protected override void OnReceivedResponseError(HttpResponse response, string error) => _trace.Error();

    protected override void OnDisconnected() => _trace.Disconnected();

    protected override void OnError(SocketError error) => _trace.Error();
}
