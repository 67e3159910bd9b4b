using System.Net.Sockets;
using NetCoreServer;
using NetCoreServer.Examples;

namespace HttpClientExample;

/// <summary>An HTTP client whose requests are tasks (<see cref="HttpClientEx"/>) that reports its connects and socket
/// errors, so the console can say why a request failed.</summary>
internal sealed class ConsoleClient : HttpClientEx, IHttpConsoleClient
{
    public ConsoleClient(string address, int port)
        : base(address, port)
    {
    }

    public ConsoleClient(UnixDomainSocketEndPoint endpoint)
        : base(endpoint)
    {
    }

    public ConnectionEvents Events { get; } = new();

    // Both run on thread-pool threads, before the request's task completes.
    protected override void OnConnected() => Events.Connected();

    protected override void OnError(SocketError error) => Events.Failed(error);
}
