using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>An HTTP trace client; see <see cref="TraceClientLogic"/>.</summary>
internal sealed class EchoHttpClient : HttpClient, IBenchmarkClient
{
    private readonly TraceClientLogic _trace;

    public EchoHttpClient(string address, int port, TraceClientLogic trace)
        : base(address, port)
    {
        _trace = trace;
        trace.Attach(this, SendRequestAsync);
    }

    bool IBenchmarkClient.StartConnecting() => ConnectAsync();

    Task IBenchmarkClient.StopAsync() => DisconnectAndWaitAsync();

    protected override void OnConnected() => _trace.Ready();

    protected override void OnReceivedResponse(HttpResponse response) => _trace.Answered(response);

    protected override void OnReceivedResponseError(HttpResponse response, string error) => _trace.Error();

    protected override void OnDisconnected() => _trace.Disconnected();

    protected override void OnError(SocketError error) => _trace.Error();
}
