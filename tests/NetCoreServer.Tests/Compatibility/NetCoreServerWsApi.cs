using System;
using System.Collections.Generic;
using System.Linq;
using NetCoreServer.Engine;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// The public and protected members of NetCoreServer's WebSocket types (chronoxor/NetCoreServer 8.x), in the signature
/// form of <see cref="ApiSignatures"/>, keyed by type name. Written from NetCoreServer's API only (names, types,
/// accessibility, which members are virtual or static); what our types add beside it is not listed.
/// </summary>
internal static class NetCoreServerWsApi
{
    public static IReadOnlyDictionary<string, string[]> Types { get; } = new Dictionary<string, string[]>
    {
        ["IWebSocket"] = [.. Hooks(virtualHooks: false), "public void SendUpgrade(HttpResponse)"],
        ["WebSocket"] =
        [
            "public .ctor(IWebSocket)",
            "public static byte WS_FIN",
            "public static byte WS_TEXT",
            "public static byte WS_BINARY",
            "public static byte WS_CLOSE",
            "public static byte WS_PING",
            "public static byte WS_PONG",
            "public bool PerformClientUpgrade(HttpResponse, Guid)",
            "public bool PerformServerUpgrade(HttpRequest, HttpResponse)",
            "public void PrepareSendFrame(byte, bool, ReadOnlySpan<byte>, int)",
            "public void PrepareReceiveFrame(byte[], long, long)",
            "public long RequiredReceiveFrameSize()",
            "public void ClearWsBuffers()",
            "public void InitWsNonce()",
        ],
        ["WsServer"] = [.. Inherited("HttpServer"), .. NetCoreServerHttpApi.TcpConstructors(""), .. ServerMembers()],
        ["WssServer"] = [.. Inherited("HttpsServer"), .. NetCoreServerHttpApi.TcpConstructors("SslContext, "), .. ServerMembers()],
        ["WsSession"] = [.. Inherited("HttpSession"), "public .ctor(WsServer)", .. SessionMembers()],
        ["WssSession"] = [.. Inherited("HttpsSession"), "public .ctor(WssServer)", .. SessionMembers()],
        ["WsClient"] = [.. Inherited("HttpClient"), .. NetCoreServerHttpApi.TcpConstructors(""), .. ClientMembers()],
        ["WssClient"] = [.. Inherited("HttpsClient"), .. NetCoreServerHttpApi.TcpConstructors("SslContext, "), .. ClientMembers()],
    };

    /// <summary>The expected signatures <paramref name="name"/> does not offer.</summary>
    public static string[] Missing(string name)
    {
        var type = NetCoreServerHttpApi.Resolve(name);
        if (type == null)
            return Types[name];
        var offered = ApiSignatures.VisibleFrom(type);
        return Types[name].Distinct().Where(signature => !offered.Contains(signature)).ToArray();
    }

    private static IEnumerable<string> Inherited(string http) => NetCoreServerHttpApi.Types[http].Where(s => !s.Contains(".ctor("));

    private static IEnumerable<string> Hooks(bool virtualHooks)
    {
        var v = virtualHooks ? "virtual " : "";
        yield return $"public {v}void OnWsConnecting(HttpRequest)";
        yield return $"public {v}void OnWsConnected(HttpResponse)";
        yield return $"public {v}bool OnWsConnecting(HttpRequest, HttpResponse)";
        yield return $"public {v}void OnWsConnected(HttpRequest)";
        yield return $"public {v}void OnWsDisconnecting()";
        yield return $"public {v}void OnWsDisconnected()";
        yield return $"public {v}void OnWsReceived(byte[], long, long)";
        yield return $"public {v}void OnWsClose(byte[], long, long, int)";
        yield return $"public {v}void OnWsPing(byte[], long, long)";
        yield return $"public {v}void OnWsPong(byte[], long, long)";
        yield return $"public {v}void OnWsError(string)";
        yield return $"public {v}void OnWsError(SocketError)";
    }

    /// <summary>One method in its five payload forms: string, ReadOnlySpan of char, byte[], byte[] with offset and size, ReadOnlySpan of byte.</summary>
    private static IEnumerable<string> Forms(string head, string lead = "")
    {
        yield return $"{head}({lead}string)";
        yield return $"{head}({lead}ReadOnlySpan<char>)";
        yield return $"{head}({lead}byte[])";
        yield return $"{head}({lead}byte[], long, long)";
        yield return $"{head}({lead}ReadOnlySpan<byte>)";
    }

    private static IEnumerable<string> Sends()
    {
        foreach (var name in new[] { "SendText", "SendBinary", "SendPing", "SendPong" })
        {
            foreach (var form in Forms($"public long {name}").Concat(Forms($"public bool {name}Async")))
                yield return form;
        }
        foreach (var form in Forms("public long SendClose", "int, ").Concat(Forms("public bool SendCloseAsync", "int, ")))
            yield return form;
        yield return "public string ReceiveText()";
        yield return "public Buffer ReceiveBinary()";
    }

    private static IEnumerable<string> Closes(string name)
    {
        yield return $"public virtual bool {name}()";
        yield return $"public virtual bool {name}(int)";
        foreach (var form in Forms($"public virtual bool {name}", "int, "))
            yield return form;
    }

    private static IEnumerable<string> SessionMembers()
        => [.. Hooks(virtualHooks: true), .. Sends(), .. Closes("Close"), "public void SendUpgrade(HttpResponse)"];

    private static IEnumerable<string> ClientMembers()
        => [.. Hooks(virtualHooks: true), .. Sends(), .. Closes("Close"), .. Closes("CloseAsync"), "public byte[] WsNonce { get; }"];

    private static IEnumerable<string> ServerMembers()
    {
        foreach (var form in Closes("CloseAll"))
            yield return form;
        foreach (var name in new[] { "MulticastText", "MulticastBinary", "MulticastPing" })
        {
            foreach (var form in Forms($"public bool {name}"))
                yield return form;
        }
        yield return "public virtual bool Multicast(ReadOnlySpan<byte>)";
    }
}
