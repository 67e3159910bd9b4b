using System.Collections.Generic;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// How NetCoreServer's public types relate (chronoxor/NetCoreServer 8.x): each type's base class among them (null when
/// it derives from object) and the interfaces it declares. Facts read from its public source. A user's
/// <c>switch (c) { case TcpClient t: ...; case SslClient s: ... }</c>, <c>c is TcpClient</c> or an overload on
/// <c>TcpServer</c> depends on exactly these relationships, so ours must have no more and no fewer.
/// </summary>
internal static class NetCoreServerTypes
{
    /// <summary>Type name in namespace NetCoreServer: (its base among these types or null, the interfaces it implements).</summary>
    public static IReadOnlyDictionary<string, (string? Base, string[] Interfaces)> Relations { get; } = new Dictionary<string, (string?, string[])>
    {
        ["TcpServer"] = (null, ["IDisposable"]),
        ["TcpSession"] = (null, ["IDisposable"]),
        ["TcpClient"] = (null, ["IDisposable"]),
        ["SslContext"] = (null, []),
        ["SslServer"] = (null, ["IDisposable"]),
        ["SslSession"] = (null, ["IDisposable"]),
        ["SslClient"] = (null, ["IDisposable"]),
        ["UdsServer"] = (null, ["IDisposable"]),
        ["UdsSession"] = (null, ["IDisposable"]),
        ["UdsClient"] = (null, ["IDisposable"]),
        ["UdpServer"] = (null, ["IDisposable"]),
        ["UdpClient"] = (null, ["IDisposable"]),
        ["Buffer"] = (null, []),
        ["HttpRequest"] = (null, []),
        ["HttpResponse"] = (null, []),
        ["FileCache"] = (null, ["IDisposable"]),
        ["DisposableLock"] = (null, ["IDisposable"]),
        ["ReadLock"] = ("DisposableLock", ["IDisposable"]),
        ["WriteLock"] = ("DisposableLock", ["IDisposable"]),
        ["Utilities"] = (null, []),
        ["HttpServer"] = ("TcpServer", ["IDisposable"]),
        ["HttpsServer"] = ("SslServer", ["IDisposable"]),
        ["HttpSession"] = ("TcpSession", ["IDisposable"]),
        ["HttpsSession"] = ("SslSession", ["IDisposable"]),
        ["HttpClient"] = ("TcpClient", ["IDisposable"]),
        ["HttpClientEx"] = ("HttpClient", ["IDisposable"]),
        ["HttpsClient"] = ("SslClient", ["IDisposable"]),
        ["HttpsClientEx"] = ("HttpsClient", ["IDisposable"]),
        ["WebSocket"] = (null, ["IWebSocket"]),
        ["WsServer"] = ("HttpServer", ["IDisposable", "IWebSocket"]),
        ["WssServer"] = ("HttpsServer", ["IDisposable", "IWebSocket"]),
        ["WsSession"] = ("HttpSession", ["IDisposable", "IWebSocket"]),
        ["WssSession"] = ("HttpsSession", ["IDisposable", "IWebSocket"]),
        ["WsClient"] = ("HttpClient", ["IDisposable", "IWebSocket"]),
        ["WssClient"] = ("HttpsClient", ["IDisposable", "IWebSocket"]),
    };

    /// <summary>The names of <paramref name="name"/> and of every type it derives from in NetCoreServer.</summary>
    public static IEnumerable<string> Lineage(string name)
    {
        for (string? current = name; current != null; current = Relations[current].Base)
            yield return current;
    }
}
