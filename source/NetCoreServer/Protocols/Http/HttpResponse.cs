using System;
using System.Text;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer;

/// <summary>
/// An HTTP response: built with the fluent <c>Set…</c>/<c>Make…</c> methods, or filled by a client from what a server
/// sent. Either way its wire bytes are in <see cref="Cache"/>, and the status, header fields and body are located in
/// them; each string is made the first time it is read and then kept. Building a response into a reused instance
/// allocates nothing once it has grown, as long as no string is read back. Not thread-safe.
/// </summary>
/// <remarks>
/// Builders write exactly what they are given (no validation), in NetCoreServer's order: <see cref="SetBegin(int, string)"/>
/// first, then fields, then one <c>SetBody</c>/<see cref="SetBodyLength"/>, which adds <c>Content-Length</c> and ends
/// the head.
/// </remarks>
public class HttpResponse
{
    private const int ProtocolPart = 0;
    private const int StatusPart = 1;
    private const int PhrasePart = 2;

    /// <summary>Creates an empty response.</summary>
    public HttpResponse()
    {
    }

    /// <summary>Creates a response and writes its status line with the standard phrase (see <see cref="SetBegin(int, string)"/>).</summary>
    /// <param name="status">The status code.</param>
    /// <param name="protocol">The protocol version (default <c>HTTP/1.1</c>).</param>
    public HttpResponse(int status, string protocol = "HTTP/1.1") => SetBegin(status, protocol);

    /// <summary>Creates a response and writes its status line (see <see cref="SetBegin(int, string, string)"/>).</summary>
    /// <param name="status">The status code.</param>
    /// <param name="statusPhrase">The reason phrase.</param>
    /// <param name="protocol">The protocol version.</param>
    public HttpResponse(int status, string statusPhrase, string protocol) => SetBegin(status, statusPhrase, protocol);

    internal HttpMessageStore Store { get; } = new();

    /// <summary>True when the response holds nothing (no byte in <see cref="Cache"/>).</summary>
    public bool IsEmpty => Store.Cache.Size == 0;

    /// <summary>True when the bytes received for this response were refused as malformed or too large.</summary>
    public bool IsErrorSet => Store.IsErrorSet;

    /// <summary>The status code; 0 when empty.</summary>
    public int Status => Store.Status;

    /// <summary>The reason phrase as written or received ("" when empty or absent); standard phrases are shared strings.</summary>
    public string StatusPhrase => Store.Start(PhrasePart, HttpStatusPhrases.Get(Store.Status));

    /// <summary>The protocol version, <c>HTTP/1.0</c> or <c>HTTP/1.1</c> once parsed; "" when empty.</summary>
    public string Protocol => Store.Start(ProtocolPart);

    /// <summary>The number of header fields, in the order received or set.</summary>
    public long Headers => Store.FieldCount;

    /// <summary>The header field at <paramref name="i"/> as (name, value), the value without surrounding whitespace; ("", "") when out of range.</summary>
    /// <param name="i">Index from 0 to <see cref="Headers"/> - 1.</param>
    public (string, string) Header(int i) => Store.Field(i);

    /// <summary>The body decoded as UTF-8 (made once, then kept until the body changes). A chunked body is already de-chunked.</summary>
    public string Body => Store.Body;

    /// <summary>A new array with a copy of the body.</summary>
    public byte[] BodyBytes => Store.BodySpan.ToArray();

    /// <summary>The body in <see cref="Cache"/>, without copying; valid until the response changes.</summary>
    public ReadOnlySpan<byte> BodySpan => Store.BodySpan;

    /// <summary>
    /// The body length: the Content-Length received or set (known when the head is in), or, for a chunked body or one
    /// read until the connection closes, the bytes received so far. 0 for a response that has no body (to HEAD, 1xx,
    /// 204, 304) whatever its Content-Length says.
    /// </summary>
    public long BodyLength => Store.BodyLength;

    /// <summary>The response's bytes: the head as received or built, followed by the body (de-chunked).</summary>
    public Buffer Cache => Store.Cache;

    /// <summary>A readable dump of the response (status, phrase, protocol, each header, body length and body), for logs.</summary>
    public override string ToString()
    {
        var text = new StringBuilder();
        text.Append("Status: ").Append(Status).AppendLine();
        text.Append("Status phrase: ").AppendLine(StatusPhrase);
        text.Append("Protocol: ").AppendLine(Protocol);
        text.Append("Headers: ").Append(Headers).AppendLine();
        for (var i = 0; i < Headers; i++)
        {
            var (name, value) = Header(i);
            text.Append(name).Append(" : ").AppendLine(value);
        }
        text.Append("Body: ").Append(BodyLength).AppendLine();
        text.AppendLine(Body);
        return text.ToString();
    }

    /// <summary>Empties the response, keeping its memory for reuse.</summary>
    /// <returns>This response.</returns>
    public HttpResponse Clear()
    {
        Store.Clear();
        return this;
    }

    /// <summary>Clears the response and writes the status line with the standard reason phrase for <paramref name="status"/> ("Unknown" for an unlisted code).</summary>
    /// <param name="status">The status code.</param>
    /// <param name="protocol">The protocol version (default <c>HTTP/1.1</c>).</param>
    /// <returns>This response.</returns>
    public HttpResponse SetBegin(int status, string protocol = "HTTP/1.1") => SetBegin(status, HttpStatusPhrases.Get(status), protocol);

    /// <summary>Clears the response and writes the status line <c>protocol status statusPhrase</c>.</summary>
    /// <param name="status">The status code.</param>
    /// <param name="statusPhrase">The reason phrase.</param>
    /// <param name="protocol">The protocol version.</param>
    /// <returns>This response.</returns>
    public HttpResponse SetBegin(int status, string statusPhrase, string protocol)
    {
        Store.Clear();
        var p = Store.Write(protocol);
        Store.Write(" "u8);
        var s = Store.Write(status);
        Store.Write(" "u8);
        var r = Store.Write(statusPhrase);
        Store.Write("\r\n"u8);
        Store.SetStart(ProtocolPart, p.Start, p.Length, protocol);
        Store.SetStart(StatusPart, s.Start, s.Length, null);
        Store.SetStart(PhrasePart, r.Start, r.Length, statusPhrase);
        Store.Status = status;
        return this;
    }

    /// <summary>Writes <c>Content-Type</c> for a file extension (<c>.html</c>, <c>.json</c>, <c>.png</c>, …, any case); writes nothing for an unknown one.</summary>
    /// <param name="extension">The extension with its dot.</param>
    /// <returns>This response.</returns>
    public HttpResponse SetContentType(string extension)
    {
        var type = HttpMimeTypes.Find(extension);
        return type == null ? this : SetHeader("Content-Type", type);
    }

    /// <summary>Writes the header field <c>key: value</c>.</summary>
    /// <param name="key">The field name.</param>
    /// <param name="value">The field value.</param>
    /// <returns>This response.</returns>
    public HttpResponse SetHeader(string key, string value)
    {
        Store.WriteField(key, value);
        return this;
    }

    /// <summary>
    /// Writes a <c>Set-Cookie</c> field: <c>name=value; Max-Age=maxAge</c>, then <c>; Domain=</c> and <c>; Path=</c>
    /// when given, and <c>; Secure</c>, <c>; SameSite=Strict</c>, <c>; HttpOnly</c> for the flags set.
    /// </summary>
    /// <param name="name">The cookie name.</param>
    /// <param name="value">The cookie value.</param>
    /// <param name="maxAge">Seconds until it expires (default 86400, one day).</param>
    /// <param name="path">The path it applies to (default none).</param>
    /// <param name="domain">The domain it applies to (default none).</param>
    /// <param name="secure">Only over HTTPS (default true).</param>
    /// <param name="strict">SameSite=Strict (default true).</param>
    /// <param name="httpOnly">Hidden from scripts (default true).</param>
    /// <returns>This response.</returns>
    public HttpResponse SetCookie(string name, string value, int maxAge = 86400, string path = "", string domain = "", bool secure = true, bool strict = true, bool httpOnly = true)
    {
        var n = Store.Write("Set-Cookie"u8);
        Store.Write(": "u8);
        var start = (int)Store.Cache.Size;
        Store.Write(name);
        Store.Write("="u8);
        Store.Write(value);
        Store.Write("; Max-Age="u8);
        Store.Write(maxAge);
        if (!string.IsNullOrEmpty(domain))
        {
            Store.Write("; Domain="u8);
            Store.Write(domain);
        }
        if (!string.IsNullOrEmpty(path))
        {
            Store.Write("; Path="u8);
            Store.Write(path);
        }
        if (secure)
            Store.Write("; Secure"u8);
        if (strict)
            Store.Write("; SameSite=Strict"u8);
        if (httpOnly)
            Store.Write("; HttpOnly"u8);
        var length = (int)Store.Cache.Size - start;
        Store.Write("\r\n"u8);
        Store.AddField(n.Start, n.Length, start, length, "Set-Cookie");
        return this;
    }

    /// <summary>Writes <c>Content-Length</c>, ends the head and appends <paramref name="body"/> encoded as UTF-8.</summary>
    /// <param name="body">The body text (default "").</param>
    /// <returns>This response.</returns>
    public HttpResponse SetBody(string body = "") => SetBody(body.AsSpan());

    /// <summary>Writes <c>Content-Length</c>, ends the head and appends <paramref name="body"/> encoded as UTF-8.</summary>
    /// <param name="body">The body text.</param>
    /// <returns>This response.</returns>
    public HttpResponse SetBody(ReadOnlySpan<char> body)
    {
        Store.WriteBody(body);
        return this;
    }

    /// <summary>Writes <c>Content-Length</c>, ends the head and appends <paramref name="body"/>.</summary>
    /// <param name="body">The body bytes.</param>
    /// <returns>This response.</returns>
    public HttpResponse SetBody(byte[] body) => SetBody(new ReadOnlySpan<byte>(body));

    /// <summary>Writes <c>Content-Length</c>, ends the head and appends <paramref name="body"/>.</summary>
    /// <param name="body">The body bytes.</param>
    /// <returns>This response.</returns>
    public HttpResponse SetBody(ReadOnlySpan<byte> body)
    {
        Store.WriteBody(body);
        return this;
    }

    /// <summary>Writes <c>Content-Length</c>, ends the head and appends the bytes of <paramref name="body"/> (see <see cref="Buffer.AsSpan"/>).</summary>
    /// <param name="body">The body buffer.</param>
    /// <returns>This response.</returns>
    public HttpResponse SetBody(Buffer body) => SetBody((ReadOnlySpan<byte>)body.AsSpan());

    /// <summary>Writes <c>Content-Length: length</c> and ends the head, without a body: the body is sent separately.</summary>
    /// <param name="length">The length of the body to come.</param>
    /// <returns>This response.</returns>
    public HttpResponse SetBodyLength(int length)
    {
        Store.WriteContentLengthAndEndHead(length);
        return this;
    }

    /// <summary>Makes an empty response with <paramref name="status"/> (default 200 OK) and <c>Content-Length: 0</c>.</summary>
    /// <param name="status">The status code.</param>
    /// <returns>This response.</returns>
    public HttpResponse MakeOkResponse(int status = 200) => SetBegin(status).SetBody();

    /// <summary>Makes a 500 Internal Server Error response with <paramref name="content"/>.</summary>
    /// <param name="content">The body text (default "").</param>
    /// <param name="contentType">The content type (default <c>text/plain; charset=UTF-8</c>; none when empty).</param>
    /// <returns>This response.</returns>
    public HttpResponse MakeErrorResponse(string content = "", string contentType = "text/plain; charset=UTF-8")
        => MakeErrorResponse(500, content, contentType);

    /// <summary>Makes an error response with <paramref name="status"/> and <paramref name="content"/>.</summary>
    /// <param name="status">The status code.</param>
    /// <param name="content">The body text (default "").</param>
    /// <param name="contentType">The content type (default <c>text/plain; charset=UTF-8</c>; none when empty).</param>
    /// <returns>This response.</returns>
    public HttpResponse MakeErrorResponse(int status, string content = "", string contentType = "text/plain; charset=UTF-8")
        => MakeResponse(status, contentType).SetBody(content.AsSpan());

    /// <summary>Makes the response to a HEAD request: 200 OK with <c>Content-Length: 0</c>.</summary>
    /// <returns>This response.</returns>
    public HttpResponse MakeHeadResponse() => SetBegin(200).SetBody();

    /// <summary>Makes a 200 OK response with text content.</summary>
    /// <param name="content">The body text (default "").</param>
    /// <param name="contentType">The content type (default <c>text/plain; charset=UTF-8</c>; none when empty).</param>
    /// <returns>This response.</returns>
    public HttpResponse MakeGetResponse(string content = "", string contentType = "text/plain; charset=UTF-8")
        => MakeResponse(200, contentType).SetBody(content.AsSpan());

    /// <summary>Makes a 200 OK response with text content.</summary>
    /// <param name="content">The body text.</param>
    /// <param name="contentType">The content type (default <c>text/plain; charset=UTF-8</c>; none when empty).</param>
    /// <returns>This response.</returns>
    public HttpResponse MakeGetResponse(ReadOnlySpan<char> content, string contentType = "text/plain; charset=UTF-8")
        => MakeResponse(200, contentType).SetBody(content);

    /// <summary>Makes a 200 OK response with binary content.</summary>
    /// <param name="content">The body bytes.</param>
    /// <param name="contentType">The content type (default none).</param>
    /// <returns>This response.</returns>
    public HttpResponse MakeGetResponse(byte[] content, string contentType = "")
        => MakeResponse(200, contentType).SetBody(content);

    /// <summary>Makes a 200 OK response with binary content.</summary>
    /// <param name="content">The body bytes.</param>
    /// <param name="contentType">The content type (default none).</param>
    /// <returns>This response.</returns>
    public HttpResponse MakeGetResponse(ReadOnlySpan<byte> content, string contentType = "")
        => MakeResponse(200, contentType).SetBody(content);

    /// <summary>Makes a 200 OK response with a buffer's bytes.</summary>
    /// <param name="content">The body buffer.</param>
    /// <param name="contentType">The content type (default none).</param>
    /// <returns>This response.</returns>
    public HttpResponse MakeGetResponse(Buffer content, string contentType = "")
        => MakeResponse(200, contentType).SetBody(content);

    /// <summary>Makes the response to OPTIONS: 200 OK with <c>Allow</c> and <c>Content-Length: 0</c>.</summary>
    /// <param name="allow">The allowed methods (default <c>HEAD,GET,POST,PUT,DELETE,OPTIONS,TRACE</c>).</param>
    /// <returns>This response.</returns>
    public HttpResponse MakeOptionsResponse(string allow = "HEAD,GET,POST,PUT,DELETE,OPTIONS,TRACE")
    {
        SetBegin(200);
        Store.WriteField("Allow", allow);
        return SetBody();
    }

    /// <summary>Makes the response to TRACE: 200 OK, <c>Content-Type: message/http</c>, the request as the body.</summary>
    /// <param name="content">The request text.</param>
    /// <returns>This response.</returns>
    public HttpResponse MakeTraceResponse(string content) => MakeTraceResponse(content.AsSpan());

    /// <summary>Makes the response to TRACE: 200 OK, <c>Content-Type: message/http</c>, the request as the body.</summary>
    /// <param name="content">The request text.</param>
    /// <returns>This response.</returns>
    public HttpResponse MakeTraceResponse(ReadOnlySpan<char> content) => MakeResponse(200, "message/http").SetBody(content);

    /// <summary>Makes the response to TRACE: 200 OK, <c>Content-Type: message/http</c>, the request as the body.</summary>
    /// <param name="content">The request bytes.</param>
    /// <returns>This response.</returns>
    public HttpResponse MakeTraceResponse(byte[] content) => MakeTraceResponse(new ReadOnlySpan<byte>(content));

    /// <summary>Makes the response to TRACE: 200 OK, <c>Content-Type: message/http</c>, the request as the body.</summary>
    /// <param name="content">The request bytes.</param>
    /// <returns>This response.</returns>
    public HttpResponse MakeTraceResponse(ReadOnlySpan<byte> content) => MakeResponse(200, "message/http").SetBody(content);

    /// <summary>Makes the response to TRACE: 200 OK, <c>Content-Type: message/http</c>, the request as the body.</summary>
    /// <param name="content">The request bytes in a buffer.</param>
    /// <returns>This response.</returns>
    public HttpResponse MakeTraceResponse(Buffer content) => MakeTraceResponse((ReadOnlySpan<byte>)content.AsSpan());

    /// <summary>Makes the response to TRACE: 200 OK, <c>Content-Type: message/http</c>, the received request's bytes as the body.</summary>
    /// <param name="request">The request to echo.</param>
    /// <returns>This response.</returns>
    public HttpResponse MakeTraceResponse(HttpRequest request) => MakeTraceResponse(request.Cache);

    private HttpResponse MakeResponse(int status, string contentType)
    {
        SetBegin(status);
        if (!string.IsNullOrEmpty(contentType))
            Store.WriteField("Content-Type", contentType);
        return this;
    }
}
