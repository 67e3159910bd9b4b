using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer;
using NetCoreServer.Examples;

namespace HttpsServerExample;

/// <summary>The HTTPS server: static files from <see cref="HttpCacheApi.StaticDirectory"/>, everything else answered by
/// the cache API in a <see cref="CacheSession"/>.</summary>
internal sealed class CacheServer : HttpsServer
{
    public CacheServer(SslContext context, HttpCacheApi api, IPAddress address, int port)
        : base(context, address, port)
    {
        Api = api;
        Http.MaxBodySize = HttpCacheApi.MaxValueSize;
        AddStaticContent(HttpCacheApi.StaticDirectory);
    }

    public HttpCacheApi Api { get; }

    protected override SslSession CreateSession() => new CacheSession(this);

    protected override void OnError(SocketError error)
    {
        Console.WriteLine($"HTTPS server caught an error with code {error}");
    }
}
