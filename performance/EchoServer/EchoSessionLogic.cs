using System;
using System.Net.Sockets;

namespace NetCoreServer.Performance.EchoServer;

/// <summary>
/// What an echo session does, whatever its transport: the tcp, ssl and uds sessions forward their hooks here, and so
/// do the http and https sessions for their requests.
/// </summary>
internal static class EchoSessionLogic
{
    /// <summary>The body of <c>GET /fixed</c>, the short fixed answer wrk measures against Kestrel's.</summary>
    public const string FixedBody = "Hello, World!";

    /// <summary>Sends the chunk straight back; the send queue copies it, so the receive buffer can be reused at once.</summary>
    public static void Received(StreamSession session, byte[] buffer, long offset, long size) => session.SendAsync(buffer, offset, size);

    /// <summary>
    /// Fills <paramref name="response"/> with the answer to one HTTP request: TRACE gets NetCoreServer's trace response
    /// (200, <c>message/http</c>, the request's own bytes, head and body), <c>GET /fixed</c> gets <see cref="FixedBody"/>
    /// as <c>text/plain</c>, anything else 404. The session queues it, which copies it, so the reused response is free again.
    /// </summary>
    public static HttpResponse Answer(HttpRequest request, HttpResponse response) => request.Method switch
    {
        "TRACE" => response.MakeTraceResponse(request),
        "GET" when request.Url == "/fixed" => response.MakeGetResponse(FixedBody),
        _ => response.MakeErrorResponse(404, "Not found"),
    };

    /// <summary>Reports a session's error (for ssl, also a failed handshake) on stderr.</summary>
    public static void Error(StreamSession session, SocketError error) => Console.Error.WriteLine($"Echo session {session.Id} caught an error: {error}");

    /// <summary>Reports a server's error on stderr.</summary>
    public static void ServerError(SocketError error) => Console.Error.WriteLine($"Echo server caught an error: {error}");
}
