using System;
using System.Text;
using BenchmarkDotNet.Attributes;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>
/// The HTTP model without sockets: parsing a typical GET, a POST with a small body and a chunked POST into a reused
/// request, and building responses into a reused response. Steady state should allocate nothing (the memory
/// diagnoser's Allocated column), as long as the benchmark reads no string back.
/// </summary>
[MemoryDiagnoser]
public class HttpBenchmarks
{
    private readonly byte[] _get = Encoding.ASCII.GetBytes(
        "GET /api/items?page=2 HTTP/1.1\r\nHost: example.com\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64)\r\n"
        + "Accept: application/json\r\nAccept-Encoding: gzip, deflate\r\nAccept-Language: en-US,en;q=0.9\r\n"
        + "Cookie: session=0123456789abcdef; theme=dark\r\nConnection: keep-alive\r\n\r\n");

    private const string PostBody = "{\"name\":\"widget\",\"quantity\":12,\"price\":9.99}";

    private readonly byte[] _post = Encoding.ASCII.GetBytes(
        "POST /api/items HTTP/1.1\r\nHost: example.com\r\nContent-Type: application/json\r\n"
        + $"Content-Length: {PostBody.Length}\r\n\r\n{PostBody}");

    private readonly byte[] _chunked = Encoding.ASCII.GetBytes(
        "POST /upload HTTP/1.1\r\nHost: example.com\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "10\r\n0123456789abcdef\r\n10;ext=1\r\nfedcba9876543210\r\n0\r\n\r\n");

    private readonly byte[] _jsonBody = Encoding.ASCII.GetBytes("{\"id\":7,\"name\":\"widget\",\"quantity\":12}");
    private readonly HttpRequest _request = new();
    private readonly HttpResponse _response = new();
    private HttpRequestReader _reader = null!;

    /// <summary>Creates the reader over the reused request.</summary>
    [GlobalSetup]
    public void Setup() => _reader = new HttpRequestReader(_request);

    /// <summary>A browser-like GET with eight header fields.</summary>
    [Benchmark]
    public int ParseGet() => Parse(_get);

    /// <summary>A POST with Content-Length and a 44-byte JSON body.</summary>
    [Benchmark]
    public int ParsePost() => Parse(_post);

    /// <summary>A POST with a chunked body of two chunks, one with an extension.</summary>
    [Benchmark]
    public int ParseChunkedPost() => Parse(_chunked);

    /// <summary>NetCoreServer's usual reply: 200 OK, Content-Type, a short text body.</summary>
    [Benchmark]
    public long BuildGetResponse() => _response.MakeGetResponse("Hello, world!", "text/plain; charset=UTF-8").Cache.Size;

    /// <summary>A reply built field by field: status, two fields, a cookie, a binary body.</summary>
    [Benchmark]
    public long BuildResponseWithFields()
        => _response.SetBegin(200).SetHeader("Server", "NetCoreServer").SetHeader("Cache-Control", "no-store")
            .SetCookie("session", "0123456789abcdef", 3600, "/").SetContentType(".json").SetBody(_jsonBody).Cache.Size;

    private int Parse(byte[] wire)
    {
        if (_reader.Read(wire, out var head) != HttpReadResult.HeaderReady)
            throw new InvalidOperationException("the head did not parse");
        if (_reader.Read(wire.AsSpan(head), out var body) != HttpReadResult.MessageReady)
            throw new InvalidOperationException("the body did not parse");
        return head + body;
    }
}
