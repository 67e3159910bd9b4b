using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer;
using NetCoreServer.Examples;

namespace HttpServerExample;

/// <summary>The HTTP server: static files from <see cref="HttpCacheApi.StaticDirectory"/>, everything else answered by
/// the cache API in a <see cref="CacheSession"/>.</summary>
internal sealed class CacheServer : HttpServer
{
    public CacheServer(HttpCacheApi api, IPAddress address, int port)
        : base(address, port)
    {
        Api = api;
        Serve();
    }

    // On a socket file: curl --unix-socket PATH http://localhost/index.html
    public CacheServer(HttpCacheApi api, UnixDomainSocketEndPoint endpoint)
        : base(endpoint)
    {
        Api = api;
        Serve();
    }

    private void Serve()
    {
        Http.MaxBodySize = HttpCacheApi.MaxValueSize;
        AddStaticContent(HttpCacheApi.StaticDirectory);
    }

    public HttpCacheApi Api { get; }

    protected override TcpSession CreateSession() => new CacheSession(this);

    protected override void OnError(SocketError error)
    {
        Console.WriteLine($"HTTP server caught an error with code {error}");
    }
}
