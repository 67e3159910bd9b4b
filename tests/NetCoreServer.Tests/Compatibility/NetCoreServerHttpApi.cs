using System;
using System.Collections.Generic;
using System.Linq;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// The public and protected members of NetCoreServer's HTTP types and helpers (chronoxor/NetCoreServer 8.x), in the
/// signature form of <see cref="ApiSignatures"/>, keyed by type NAME: most of these types are still being written,
/// so a typeof would not compile. Written from NetCoreServer's API only (names, types, accessibility, which members
/// are virtual or static). Default parameter values are not part of a signature: "InsertPath(string, string, string,
/// TimeSpan, InsertHandler)" is called as InsertPath(path) by NetCoreServer users, so each type's own tests call
/// its members with their defaults.
/// <para>
/// Wired into <see cref="HttpApiSurfaceTests"/> as each type lands (see <see cref="HttpApiSurfaceTests.Landed"/>);
/// the others wait for their types.
/// </para>
/// </summary>
internal static class NetCoreServerHttpApi
{
    /// <summary>Every type listed, by name in namespace NetCoreServer, with its expected members.</summary>
    public static IReadOnlyDictionary<string, string[]> Types { get; } = new Dictionary<string, string[]>
    {
        ["Buffer"] = BufferMembers(),
        ["HttpRequest"] = HttpRequestMembers(),
        ["HttpResponse"] = HttpResponseMembers(),
        ["FileCache"] = FileCacheMembers(),
        ["DisposableLock"] = ["public .ctor(Action)", "public void Dispose()"],
        ["ReadLock"] = ["public .ctor(ReaderWriterLockSlim)", "public void Dispose()"],
        ["WriteLock"] = ["public .ctor(ReaderWriterLockSlim)", "public void Dispose()"],
        ["StringExtensions"] =
        [
            "public static string RemoveSuffix(this string, char)",
            "public static string RemoveSuffix(this string, string)",
            "public static string RemoveWhiteSpace(this string)",
        ],
        ["Utilities"] =
        [
            "public .ctor()",
            "public static string GenerateDataSize(double)",
            "public static string GenerateTimePeriod(double)",
        ],
        ["HttpServer"] = [.. Inherited(typeof(TcpServer)), .. TcpConstructors(""), .. StaticContentMembers()],
        ["HttpsServer"] = [.. Inherited(typeof(SslServer)), .. TcpConstructors("SslContext, "), .. StaticContentMembers()],
        ["HttpSession"] = [.. Inherited(typeof(TcpSession)), "public .ctor(HttpServer)", .. HttpSessionMembers()],
        ["HttpsSession"] = [.. Inherited(typeof(SslSession)), "public .ctor(HttpsServer)", .. HttpSessionMembers()],
        ["HttpClient"] = [.. Inherited(typeof(TcpClient)), .. TcpConstructors(""), .. HttpClientMembers()],
        ["HttpsClient"] = [.. Inherited(typeof(SslClient)), .. TcpConstructors("SslContext, "), .. HttpClientMembers()],
        ["HttpClientEx"] = [.. Inherited(typeof(TcpClient)), .. TcpConstructors(""), .. HttpClientMembers(), .. HttpClientExMembers()],
        ["HttpsClientEx"] = [.. Inherited(typeof(SslClient)), .. TcpConstructors("SslContext, "), .. HttpClientMembers(), .. HttpClientExMembers()],
    };

    /// <summary>The expected signatures of the type named <paramref name="name"/> that it does not offer (all of them when it does not exist yet).</summary>
    public static string[] Missing(string name)
    {
        var expected = Types[name].Distinct();
        if (Resolve(name) is not { } type)
            return expected.ToArray();
        var offered = ApiSignatures.VisibleFrom(type);
        return expected.Where(signature => !offered.Contains(signature)).ToArray();
    }

    /// <summary>The type NetCoreServer.<paramref name="name"/> in our assembly, or null while it is not written.</summary>
    public static Type? Resolve(string name) => typeof(TcpServer).Assembly.GetType("NetCoreServer." + name);

    // What an HTTP(S) type inherits from the transport type below it: its members without its constructors.
    private static IEnumerable<string> Inherited(Type transport) => NetCoreServerApi.Types[transport].Where(s => !s.Contains(".ctor("));

    /// <summary>The four constructors of NetCoreServer's TCP-based servers and clients, after an optional SslContext.</summary>
    internal static string[] TcpConstructors(string context) =>
    [
        $"public .ctor({context}IPAddress, int)",
        $"public .ctor({context}string, int)",
        $"public .ctor({context}DnsEndPoint)",
        $"public .ctor({context}IPEndPoint)",
    ];

    private static string[] BufferMembers() =>
    [
        "public .ctor()",
        "public .ctor(long)",
        "public .ctor(byte[])",
        "public bool IsEmpty { get; }",
        "public byte[] Data { get; }",
        "public long Capacity { get; }",
        "public long Size { get; }",
        "public long Offset { get; }",
        "public byte this[long] { get; }",
        "public Span<byte> AsSpan()",
        "public string ToString()",
        "public void Clear()",
        "public string ExtractString(long, long)",
        "public void Remove(long, long)",
        "public void Reserve(long)",
        "public void Resize(long)",
        "public void Shift(long)",
        "public void Unshift(long)",
        "public long Append(byte)",
        "public long Append(byte[])",
        "public long Append(byte[], long, long)",
        "public long Append(ReadOnlySpan<byte>)",
        "public long Append(Buffer)",
        "public long Append(string)",
        "public long Append(ReadOnlySpan<char>)",
    ];

    private static string[] HttpRequestMembers() =>
    [
        "public .ctor()",
        "public .ctor(string, string, string)",
        "public bool IsEmpty { get; }",
        "public bool IsErrorSet { get; }",
        "public string Method { get; }",
        "public string Url { get; }",
        "public string Protocol { get; }",
        "public long Headers { get; }",
        "public (string, string) Header(int)",
        "public long Cookies { get; }",
        "public (string, string) Cookie(int)",
        "public string Body { get; }",
        "public byte[] BodyBytes { get; }",
        "public Span<byte> BodySpan { get; }",
        "public long BodyLength { get; }",
        "public Buffer Cache { get; }",
        "public string ToString()",
        "public HttpRequest Clear()",
        "public HttpRequest SetBegin(string, string, string)",
        "public HttpRequest SetHeader(string, string)",
        "public HttpRequest SetCookie(string, string)",
        "public HttpRequest AddCookie(string, string)",
        "public HttpRequest SetBody(string)",
        "public HttpRequest SetBody(ReadOnlySpan<char>)",
        "public HttpRequest SetBody(byte[])",
        "public HttpRequest SetBody(ReadOnlySpan<byte>)",
        "public HttpRequest SetBodyLength(int)",
        "public HttpRequest MakeHeadRequest(string)",
        "public HttpRequest MakeGetRequest(string)",
        "public HttpRequest MakePostRequest(string, string, string)",
        "public HttpRequest MakePostRequest(string, ReadOnlySpan<char>, string)",
        "public HttpRequest MakePostRequest(string, byte[], string)",
        "public HttpRequest MakePostRequest(string, ReadOnlySpan<byte>, string)",
        "public HttpRequest MakePutRequest(string, string, string)",
        "public HttpRequest MakePutRequest(string, ReadOnlySpan<char>, string)",
        "public HttpRequest MakePutRequest(string, byte[], string)",
        "public HttpRequest MakePutRequest(string, ReadOnlySpan<byte>, string)",
        "public HttpRequest MakeDeleteRequest(string)",
        "public HttpRequest MakeOptionsRequest(string)",
        "public HttpRequest MakeTraceRequest(string)",
    ];

    private static string[] HttpResponseMembers() =>
    [
        "public .ctor()",
        "public .ctor(int, string)",
        "public .ctor(int, string, string)",
        "public bool IsEmpty { get; }",
        "public bool IsErrorSet { get; }",
        "public int Status { get; }",
        "public string StatusPhrase { get; }",
        "public string Protocol { get; }",
        "public long Headers { get; }",
        "public (string, string) Header(int)",
        "public string Body { get; }",
        "public byte[] BodyBytes { get; }",
        "public ReadOnlySpan<byte> BodySpan { get; }",
        "public long BodyLength { get; }",
        "public Buffer Cache { get; }",
        "public string ToString()",
        "public HttpResponse Clear()",
        "public HttpResponse SetBegin(int, string)",
        "public HttpResponse SetBegin(int, string, string)",
        "public HttpResponse SetContentType(string)",
        "public HttpResponse SetHeader(string, string)",
        "public HttpResponse SetCookie(string, string, int, string, string, bool, bool, bool)",
        "public HttpResponse SetBody(string)",
        "public HttpResponse SetBody(ReadOnlySpan<char>)",
        "public HttpResponse SetBody(byte[])",
        "public HttpResponse SetBody(ReadOnlySpan<byte>)",
        "public HttpResponse SetBodyLength(int)",
        "public HttpResponse MakeOkResponse(int)",
        "public HttpResponse MakeErrorResponse(string, string)",
        "public HttpResponse MakeErrorResponse(int, string, string)",
        "public HttpResponse MakeHeadResponse()",
        "public HttpResponse MakeGetResponse(string, string)",
        "public HttpResponse MakeGetResponse(ReadOnlySpan<char>, string)",
        "public HttpResponse MakeGetResponse(byte[], string)",
        "public HttpResponse MakeGetResponse(ReadOnlySpan<byte>, string)",
        "public HttpResponse MakeOptionsResponse(string)",
        "public HttpResponse MakeTraceResponse(string)",
        "public HttpResponse MakeTraceResponse(ReadOnlySpan<char>)",
        "public HttpResponse MakeTraceResponse(byte[])",
        "public HttpResponse MakeTraceResponse(ReadOnlySpan<byte>)",
        "public HttpResponse MakeTraceResponse(HttpRequest)",
    ];

    private static string[] FileCacheMembers() =>
    [
        "public .ctor()",
        "public delegate bool InsertHandler(FileCache, string, byte[], TimeSpan)",
        "public bool Empty { get; }",
        "public int Size { get; }",
        "public bool Add(string, byte[], TimeSpan)",
        "public (bool, byte[]) Find(string)",
        "public bool Remove(string)",
        "public bool InsertPath(string, string, string, TimeSpan, InsertHandler)",
        "public bool FindPath(string)",
        "public bool RemovePath(string)",
        "public void Clear()",
        "public void Dispose()",
        "protected virtual void Dispose(bool)",
    ];

    /// <summary>What HttpServer and HttpsServer add to their transport server (CreateSession stays the transport's).</summary>
    private static string[] StaticContentMembers() =>
    [
        "public FileCache Cache { get; }",
        "public void AddStaticContent(string, string, string, TimeSpan?)",
        "public void RemoveStaticContent(string)",
        "public void ClearStaticContent()",
    ];

    /// <summary>What HttpSession and HttpsSession add to their transport session (OnReceived and OnDisconnected are overridden).</summary>
    private static string[] HttpSessionMembers() =>
    [
        "public FileCache Cache { get; }",
        "protected HttpRequest Request { get; }",
        "public HttpResponse Response { get; }",
        "public long SendResponse()",
        "public long SendResponse(HttpResponse)",
        "public long SendResponseBody(string)",
        "public long SendResponseBody(ReadOnlySpan<char>)",
        "public long SendResponseBody(byte[])",
        "public long SendResponseBody(byte[], long, long)",
        "public long SendResponseBody(ReadOnlySpan<byte>)",
        "public bool SendResponseAsync()",
        "public bool SendResponseAsync(HttpResponse)",
        "public bool SendResponseBodyAsync(string)",
        "public bool SendResponseBodyAsync(ReadOnlySpan<char>)",
        "public bool SendResponseBodyAsync(byte[])",
        "public bool SendResponseBodyAsync(byte[], long, long)",
        "public bool SendResponseBodyAsync(ReadOnlySpan<byte>)",
        "protected virtual void OnReceivedRequestHeader(HttpRequest)",
        "protected virtual void OnReceivedRequest(HttpRequest)",
        "protected virtual void OnReceivedCachedRequest(HttpRequest, byte[])",
        "protected virtual void OnReceivedRequestError(HttpRequest, string)",
    ];

    /// <summary>What HttpClient and HttpsClient add to their transport client (OnReceived and OnDisconnected are overridden).</summary>
    private static string[] HttpClientMembers() =>
    [
        "public HttpRequest Request { get; protected set; }",
        "protected HttpResponse Response { get; set; }",
        "public long SendRequest()",
        "public long SendRequest(HttpRequest)",
        "public long SendRequestBody(string)",
        "public long SendRequestBody(ReadOnlySpan<char>)",
        "public long SendRequestBody(byte[])",
        "public long SendRequestBody(byte[], long, long)",
        "public long SendRequestBody(ReadOnlySpan<byte>)",
        "public bool SendRequestAsync()",
        "public bool SendRequestAsync(HttpRequest)",
        "public bool SendRequestBodyAsync(string)",
        "public bool SendRequestBodyAsync(ReadOnlySpan<char>)",
        "public bool SendRequestBodyAsync(byte[])",
        "public bool SendRequestBodyAsync(byte[], long, long)",
        "public bool SendRequestBodyAsync(ReadOnlySpan<byte>)",
        "protected virtual void OnReceivedResponseHeader(HttpResponse)",
        "protected virtual void OnReceivedResponse(HttpResponse)",
        "protected virtual void OnReceivedResponseError(HttpResponse, string)",
    ];

    /// <summary>The Task-returning requests HttpClientEx and HttpsClientEx add (timeout null: one minute).</summary>
    private static string[] HttpClientExMembers() =>
    [
        "public Task<HttpResponse> SendRequest(TimeSpan?)",
        "public Task<HttpResponse> SendRequest(HttpRequest, TimeSpan?)",
        "public Task<HttpResponse> SendHeadRequest(string, TimeSpan?)",
        "public Task<HttpResponse> SendGetRequest(string, TimeSpan?)",
        "public Task<HttpResponse> SendPostRequest(string, string, TimeSpan?)",
        "public Task<HttpResponse> SendPutRequest(string, string, TimeSpan?)",
        "public Task<HttpResponse> SendDeleteRequest(string, TimeSpan?)",
        "public Task<HttpResponse> SendOptionsRequest(string, TimeSpan?)",
        "public Task<HttpResponse> SendTraceRequest(string, TimeSpan?)",
    ];
}
