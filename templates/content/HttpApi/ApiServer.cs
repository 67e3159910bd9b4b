using System.Net;
using System.Net.Sockets;
using NetCoreServer;

namespace HttpApi;

/// <summary>The HTTP server: every connection becomes an <see cref="ApiSession"/>.</summary>
internal sealed class ApiServer : HttpServer
{
    public ApiServer(IPAddress address, int port)
        : base(address, port)
    {
        // The largest request body accepted; a larger one is answered 413 by the library.
        Http.MaxBodySize = 64 * 1024;
    }

    protected override TcpSession CreateSession() => new ApiSession(this);

    protected override void OnError(SocketError error) => Console.Error.WriteLine($"Server error: {error}");
}
