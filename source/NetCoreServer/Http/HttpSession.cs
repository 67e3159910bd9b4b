using System;
using NetCoreServer.Http;

namespace NetCoreServer;

/// <summary>
/// One HTTP connection of an <see cref="HttpServer"/> (TCP). Override <see cref="OnReceivedRequest"/> and answer with
/// <see cref="SendResponseAsync(HttpResponse)"/>. Requests are parsed as they arrive (pipelined requests are handed
/// over one by one, in order, and must be answered in that order); see <see cref="HttpOptions"/> for the limits and
/// timeouts. HTTP itself lives in one component shared with <see cref="HttpsSession"/>; this class only says it runs
/// over TCP. Hooks run on the session's receive thread, one request at a time.
/// </summary>
public partial class HttpSession : TcpSession, IHttpServerSessionHost
{
    /// <summary>Creates a session for <paramref name="server"/>.</summary>
    /// <param name="server">The server that accepted the connection.</param>
    public HttpSession(HttpServer server)
        : base(server) => _http = InstallHttp(server.Cache, server.Http);
}
