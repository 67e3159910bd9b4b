using System;
using System.Net.Sockets;
using NetCoreServer;
using NetCoreServer.Examples;

namespace HttpsServerExample;

/// <summary>One HTTPS connection: every request that is not a static file goes to the shared <see cref="HttpCacheApi"/>.</summary>
internal sealed class CacheSession : HttpsSession
{
    private readonly HttpCacheApi _api;

    public CacheSession(CacheServer server)
        : base(server)
    {
        _api = server.Api;
    }

    // Runs on the session's receive thread, one request at a time; SendResponseAsync copies Response before returning.
    protected override void OnReceivedRequest(HttpRequest request)
    {
        _api.Answer(request, Response);
        SendResponseAsync(Response);
    }

    protected override void OnReceivedRequestError(HttpRequest request, string error)
    {
        // The library answers it (400, 413, 431...) and closes the connection.
        Console.WriteLine($"HTTPS request error: {error}");
    }

    protected override void OnError(SocketError error)
    {
        // A failed handshake lands here too: a client that does not trust the certificate, or a silent peer (TimedOut).
        var reason = HandshakeException is { } exception && !IsHandshaked ? $": {exception.Message}" : "";
        Console.WriteLine($"HTTPS session caught an error with code {error}{reason}");
    }
}
