using System.Collections.Generic;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// The parameter names of NetCoreServer's public and protected members (chronoxor/NetCoreServer 8.x), as facts read
/// from its public source: a caller's named argument (<c>Send(buffer: data)</c>, <c>Dispose(disposingManagedResources:
/// true)</c>) compiles only against the same name. Keyed by "Method(type, type)" in the form of <see cref="ApiSignatures"/>
/// (".ctor" for constructors); each entry holds for every type of <see cref="NetCoreServerTypes"/> that has that member.
/// </summary>
internal static class NetCoreServerParameterNames
{
    public static IReadOnlyDictionary<string, string[]> Names { get; } = Build();

    private static Dictionary<string, string[]> Build()
    {
        var names = new Dictionary<string, string[]>
        {
            [".ctor(IPAddress, int)"] = ["address", "port"],
            [".ctor(string, int)"] = ["address", "port"],
            [".ctor(DnsEndPoint)"] = ["endpoint"],
            [".ctor(IPEndPoint)"] = ["endpoint"],
            [".ctor(SslContext, IPAddress, int)"] = ["context", "address", "port"],
            [".ctor(SslContext, string, int)"] = ["context", "address", "port"],
            [".ctor(SslContext, DnsEndPoint)"] = ["context", "endpoint"],
            [".ctor(SslContext, IPEndPoint)"] = ["context", "endpoint"],
            [".ctor(UnixDomainSocketEndPoint)"] = ["endpoint"],
            [".ctor(TcpServer)"] = ["server"],
            [".ctor(SslServer)"] = ["server"],
            [".ctor(UdsServer)"] = ["server"],
            [".ctor(HttpServer)"] = ["server"],
            [".ctor(HttpsServer)"] = ["server"],
            [".ctor(WsServer)"] = ["server"],
            [".ctor(WssServer)"] = ["server"],
            [".ctor(Action)"] = ["exitLock"],
            [".ctor(ReaderWriterLockSlim)"] = ["locker"],
            ["Dispose(bool)"] = ["disposingManagedResources"],
            ["Receive(byte[])"] = ["buffer"],
            ["Receive(byte[], long, long)"] = ["buffer", "offset", "size"],
            ["Receive(long)"] = ["size"],
            ["OnReceived(byte[], long, long)"] = ["buffer", "offset", "size"],
            ["OnSent(long, long)"] = ["sent", "pending"],
            ["OnError(SocketError)"] = ["error"],
            ["FindSession(Guid)"] = ["id"],
            ["Receive(ref EndPoint, byte[])"] = ["endpoint", "buffer"],
            ["Receive(ref EndPoint, byte[], long, long)"] = ["endpoint", "buffer", "offset", "size"],
            ["Receive(ref EndPoint, long)"] = ["endpoint", "size"],
            ["OnReceived(EndPoint, byte[], long, long)"] = ["endpoint", "buffer", "offset", "size"],
            ["OnSent(EndPoint, long)"] = ["endpoint", "sent"],
            ["GenerateDataSize(double)"] = ["b"],
            ["GenerateTimePeriod(double)"] = ["ms"],
            ["Add(string, byte[], TimeSpan)"] = ["key", "value", "timeout"],
            ["Find(string)"] = ["key"],
            ["Remove(string)"] = ["key"],
            ["InsertPath(string, string, string, TimeSpan, InsertHandler)"] = ["path", "prefix", "filter", "timeout", "handler"],
            ["FindPath(string)"] = ["path"],
            ["RemovePath(string)"] = ["path"],
            ["OnWsConnecting(HttpRequest)"] = ["request"],
            ["OnWsConnected(HttpResponse)"] = ["response"],
            ["OnWsConnecting(HttpRequest, HttpResponse)"] = ["request", "response"],
            ["OnWsConnected(HttpRequest)"] = ["request"],
            ["OnWsError(string)"] = ["error"],
            ["OnWsError(SocketError)"] = ["error"],
            ["SendUpgrade(HttpResponse)"] = ["response"],
            ["Close(int)"] = ["status"],
            ["CloseAsync(int)"] = ["status"],
            ["OnReceivedRequestHeader(HttpRequest)"] = ["request"],
            ["OnReceivedRequest(HttpRequest)"] = ["request"],
            ["OnReceivedRequestError(HttpRequest, string)"] = ["request", "error"],
            ["OnReceivedResponseHeader(HttpResponse)"] = ["response"],
            ["OnReceivedResponse(HttpResponse)"] = ["response"],
            ["OnReceivedResponseError(HttpResponse, string)"] = ["response", "error"],
            ["SendRequest(HttpRequest)"] = ["request"],
            ["SendRequestAsync(HttpRequest)"] = ["request"],
            ["SendResponse(HttpResponse)"] = ["response"],
            ["SendResponseAsync(HttpResponse)"] = ["response"],
            ["SendRequest(HttpRequest, TimeSpan?)"] = ["request", "timeout"],
            ["SendRequest(TimeSpan?)"] = ["timeout"],
            ["SendGetRequest(string, TimeSpan?)"] = ["url", "timeout"],
            ["SendHeadRequest(string, TimeSpan?)"] = ["url", "timeout"],
            ["SendDeleteRequest(string, TimeSpan?)"] = ["url", "timeout"],
            ["SendOptionsRequest(string, TimeSpan?)"] = ["url", "timeout"],
            ["SendTraceRequest(string, TimeSpan?)"] = ["url", "timeout"],
            ["SendPostRequest(string, string, TimeSpan?)"] = ["url", "content", "timeout"],
            ["SendPutRequest(string, string, TimeSpan?)"] = ["url", "content", "timeout"],
        };
        // HttpRequest and HttpResponse (8.x: span overloads, SetCookie with strict).
        names[".ctor(int, string)"] = ["status", "protocol"];
        names[".ctor(int, string, string)"] = ["status", "statusPhrase", "protocol"];
        names[".ctor(string, string, string)"] = ["method", "url", "protocol"];
        names["SetBegin(int, string)"] = ["status", "protocol"];
        names["SetBegin(int, string, string)"] = ["status", "statusPhrase", "protocol"];
        names["SetBegin(string, string, string)"] = ["method", "url", "protocol"];
        names["Header(int)"] = ["i"];
        names["SetHeader(string, string)"] = ["key", "value"];
        names["SetContentType(string)"] = ["extension"];
        names["SetCookie(string, string)"] = ["name", "value"];
        names["SetCookie(string, string, int, string, string, bool, bool, bool)"] = ["name", "value", "maxAge", "path", "domain", "secure", "strict", "httpOnly"];
        names["SetBodyLength(int)"] = ["length"];
        names["MakeOkResponse(int)"] = ["status"];
        names["MakeErrorResponse(string, string)"] = ["content", "contentType"];
        names["MakeErrorResponse(int, string, string)"] = ["status", "content", "contentType"];
        names["MakeOptionsResponse(string)"] = ["allow"];
        names["MakeTraceResponse(HttpRequest)"] = ["request"];
        foreach (var body in new[] { "string", "ReadOnlySpan<char>", "byte[]", "ReadOnlySpan<byte>" })
        {
            names[$"SetBody({body})"] = ["body"];
            names[$"MakeGetResponse({body}, string)"] = ["content", "contentType"];
            names[$"MakeTraceResponse({body})"] = ["content"];
        }
        foreach (var method in new[] { "MakeHeadRequest", "MakeGetRequest", "MakeDeleteRequest", "MakeOptionsRequest", "MakeTraceRequest" })
            names[$"{method}(string)"] = ["url"];
        foreach (var method in new[] { "MakePostRequest", "MakePutRequest" })
            names[$"{method}(string, string, string)"] = ["url", "content", "contentType"];
        // Buffer, WebSocket, HttpServer's static content.
        names[".ctor(long)"] = ["capacity"];
        names[".ctor(byte[])"] = ["data"];
        names["ExtractString(long, long)"] = ["offset", "size"];
        names["Remove(long, long)"] = ["offset", "size"];
        names["Reserve(long)"] = ["capacity"];
        names["Resize(long)"] = ["size"];
        names["Shift(long)"] = ["offset"];
        names["Unshift(long)"] = ["offset"];
        names["Append(byte[])"] = ["buffer"];
        names["Append(byte[], long, long)"] = ["buffer", "offset", "size"];
        names["Append(string)"] = ["text"];
        names["PrepareReceiveFrame(byte[], long, long)"] = ["buffer", "offset", "size"];
        names["AddStaticContent(string, string, string, TimeSpan?)"] = ["path", "prefix", "filter", "timeout"];
        names["RemoveStaticContent(string)"] = ["path"];
        // The data forms every sending member shares: Send, SendAsync, Multicast, SendText, SendBinaryAsync, ...
        string[] senders = ["Send", "SendAsync", "Multicast", "SendText", "SendTextAsync", "SendBinary", "SendBinaryAsync", "SendPing", "SendPingAsync", "SendPong", "SendPongAsync"];
        foreach (var name in senders)
        {
            names[$"{name}(byte[])"] = ["buffer"];
            names[$"{name}(byte[], long, long)"] = ["buffer", "offset", "size"];
            names[$"{name}(ReadOnlySpan<byte>)"] = ["buffer"];
            names[$"{name}(string)"] = ["text"];
            names[$"{name}(ReadOnlySpan<char>)"] = ["text"];
        }
        foreach (var name in new[] { "SendRequestBody", "SendRequestBodyAsync", "SendResponseBody", "SendResponseBodyAsync" })
        {
            names[$"{name}(string)"] = ["body"];
            names[$"{name}(ReadOnlySpan<char>)"] = ["body"];
            names[$"{name}(byte[])"] = ["buffer"];
            names[$"{name}(byte[], long, long)"] = ["buffer", "offset", "size"];
            names[$"{name}(ReadOnlySpan<byte>)"] = ["buffer"];
        }
        foreach (var name in new[] { "Send", "SendAsync" })
        {
            names[$"{name}(EndPoint, byte[])"] = ["endpoint", "buffer"];
            names[$"{name}(EndPoint, byte[], long, long)"] = ["endpoint", "buffer", "offset", "size"];
            names[$"{name}(EndPoint, ReadOnlySpan<byte>)"] = ["endpoint", "buffer"];
            names[$"{name}(EndPoint, string)"] = ["endpoint", "text"];
            names[$"{name}(EndPoint, ReadOnlySpan<char>)"] = ["endpoint", "text"];
        }
        foreach (var name in new[] { "OnWsReceived", "OnWsClose", "OnWsPing", "OnWsPong" })
            names[$"{name}(byte[], long, long)"] = ["buffer", "offset", "size"];
        foreach (var name in new[] { "SendClose", "SendCloseAsync" })
            names[$"{name}(int, byte[], long, long)"] = ["status", "buffer", "offset", "size"];
        return names;
    }
}
