using System;
using System.Text;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer;

/// <summary>
/// An HTTP request: built with the fluent <c>Set…</c>/<c>Make…</c> methods, or filled by a session from what a client
/// sent. Either way its wire bytes are in <see cref="Cache"/>, and the method, URL, header fields, cookies and body are
/// located in them; each string is made the first time it is read and then kept, so parsing a request and handling it
/// without reading a part costs no string for that part. Reuse one instance (<see cref="Clear"/>) to stop allocating
/// once it has grown. Not thread-safe.
/// </summary>
/// <remarks>
/// Builders write exactly what they are given (no validation), in NetCoreServer's order: <see cref="SetBegin"/> first,
/// then fields, then one <c>SetBody</c>/<see cref="SetBodyLength"/>, which adds <c>Content-Length</c> and ends the head.
/// </remarks>
public class HttpRequest
{
    private const int MethodPart = 0;
    private const int UrlPart = 1;
    private const int ProtocolPart = 2;

    /// <summary>Creates an empty request.</summary>
    public HttpRequest()
    {
    }

    /// <summary>Creates a request and writes its request line (see <see cref="SetBegin"/>).</summary>
    /// <param name="method">The method, e.g. <c>GET</c>.</param>
    /// <param name="url">The request target, e.g. <c>/index.html</c>.</param>
    /// <param name="protocol">The protocol version (default <c>HTTP/1.1</c>).</param>
    public HttpRequest(string method, string url, string protocol = "HTTP/1.1") => SetBegin(method, url, protocol);

    // The protocol that received this request and the request's number there (server side), for Handle.
    private IHttpAnswerTarget? _answerTarget;
    private long _answerNumber;
    private HttpRequestHandle? _handle;

    internal HttpMessageStore Store { get; } = new();

    /// <summary>
    /// Answers this request later, from any thread (see <see cref="HttpRequestHandle"/>): take it in a request hook, as
    /// the next request reuses this object. Null for a request that no server session received.
    /// </summary>
    public HttpRequestHandle? Handle
    {
        get
        {
            if (_answerTarget == null)
                return null;
            if (_handle?.Number != _answerNumber)
                _handle = new HttpRequestHandle(_answerTarget, _answerNumber);
            return _handle;
        }
    }

    /// <summary>True once <see cref="Handle"/> was read for the request received last: its answer will come through it.</summary>
    internal bool HandleTaken => _answerTarget != null && _handle?.Number == _answerNumber;

    /// <summary>A server session received this request head: request <paramref name="number"/> of <paramref name="target"/>.</summary>
    internal void ReceivedBy(IHttpAnswerTarget target, long number)
    {
        _answerTarget = target;
        _answerNumber = number;
    }

    /// <summary>True when the request holds nothing (no byte in <see cref="Cache"/>).</summary>
    public bool IsEmpty => Store.Cache.Size == 0;

    /// <summary>True when the bytes received for this request were refused as malformed or too large.</summary>
    public bool IsErrorSet => Store.IsErrorSet;

    /// <summary>The method (<c>GET</c>, <c>POST</c>, …); "" when empty. Common methods are shared strings.</summary>
    public string Method => Store.Start(MethodPart);

    /// <summary>The request target as sent (path and query, not decoded); "" when empty.</summary>
    public string Url => Store.Start(UrlPart);

    /// <summary>The protocol version, <c>HTTP/1.0</c> or <c>HTTP/1.1</c> once parsed; "" when empty.</summary>
    public string Protocol => Store.Start(ProtocolPart);

    /// <summary>The number of header fields, in the order received or set (a <see cref="SetCookie"/> is one).</summary>
    public long Headers => Store.FieldCount;

    /// <summary>The header field at <paramref name="i"/> as (name, value), the value without surrounding whitespace; ("", "") when out of range.</summary>
    /// <param name="i">Index from 0 to <see cref="Headers"/> - 1.</param>
    public (string, string) Header(int i) => Store.Field(i);

    /// <summary>The number of cookies: those set with <see cref="SetCookie"/>/<see cref="AddCookie"/>, or found in received <c>Cookie</c> fields.</summary>
    public long Cookies => Store.CookieCount;

    /// <summary>The cookie at <paramref name="i"/> as (name, value); ("", "") when out of range.</summary>
    /// <param name="i">Index from 0 to <see cref="Cookies"/> - 1.</param>
    public (string, string) Cookie(int i) => Store.Cookie(i);

    /// <summary>The body decoded as UTF-8 (made once, then kept until the body changes). A chunked body is already de-chunked.</summary>
    public string Body => Store.Body;

    /// <summary>A new array with a copy of the body.</summary>
    public byte[] BodyBytes => Store.BodySpan.ToArray();

    /// <summary>The body in <see cref="Cache"/>, without copying; valid until the request changes.</summary>
    public Span<byte> BodySpan => Store.BodyWritableSpan;

    /// <summary>
    /// The body length: the Content-Length received or set (already known when the head is in, while the body is still
    /// arriving), or, for a chunked body, the bytes decoded so far.
    /// </summary>
    public long BodyLength => Store.BodyLength;

    /// <summary>The request's bytes: the head as received or built, followed by the body (de-chunked).</summary>
    public Buffer Cache => Store.Cache;

    /// <summary>A readable dump of the request (method, URL, protocol, each header, body length and body), for logs.</summary>
    public override string ToString()
    {
        var text = new StringBuilder();
        text.Append("Request method: ").AppendLine(Method);
        text.Append("Request URL: ").AppendLine(Url);
        text.Append("Request protocol: ").AppendLine(Protocol);
        text.Append("Request headers: ").Append(Headers).AppendLine();
        for (var i = 0; i < Headers; i++)
        {
            var (name, value) = Header(i);
            text.Append(name).Append(" : ").AppendLine(value);
        }
        text.Append("Request body: ").Append(BodyLength).AppendLine();
        text.AppendLine(Body);
        return text.ToString();
    }

    /// <summary>Empties the request, keeping its memory for reuse.</summary>
    /// <returns>This request.</returns>
    public HttpRequest Clear()
    {
        Store.Clear();
        return this;
    }

    /// <summary>Clears the request and writes the request line <c>method url protocol</c>.</summary>
    /// <param name="method">The method, e.g. <c>GET</c>.</param>
    /// <param name="url">The request target.</param>
    /// <param name="protocol">The protocol version (default <c>HTTP/1.1</c>).</param>
    /// <returns>This request.</returns>
    public HttpRequest SetBegin(string method, string url, string protocol = "HTTP/1.1")
    {
        Store.Clear();
        var m = Store.Write(method);
        Store.Write(" "u8);
        var u = Store.Write(url);
        Store.Write(" "u8);
        var p = Store.Write(protocol);
        Store.Write("\r\n"u8);
        Store.SetStart(MethodPart, m.Start, m.Length, method);
        Store.SetStart(UrlPart, u.Start, u.Length, url);
        Store.SetStart(ProtocolPart, p.Start, p.Length, protocol);
        return this;
    }

    /// <summary>Writes the header field <c>key: value</c>.</summary>
    /// <param name="key">The field name.</param>
    /// <param name="value">The field value.</param>
    /// <returns>This request.</returns>
    public HttpRequest SetHeader(string key, string value)
    {
        Store.WriteField(key, value);
        return this;
    }

    /// <summary>Writes a <c>Cookie: name=value</c> field and records the cookie.</summary>
    /// <param name="name">The cookie name.</param>
    /// <param name="value">The cookie value.</param>
    /// <returns>This request.</returns>
    public HttpRequest SetCookie(string name, string value)
    {
        var n = Store.Write("Cookie"u8);
        Store.Write(": "u8);
        var cookieName = Store.Write(name);
        Store.Write("="u8);
        var cookieValue = Store.Write(value);
        Store.Write("\r\n"u8);
        Store.AddField(n.Start, n.Length, cookieName.Start, cookieValue.Start + cookieValue.Length - cookieName.Start, "Cookie");
        Store.AddCookie(cookieName.Start, cookieName.Length, cookieValue.Start, cookieValue.Length, name, value);
        return this;
    }

    /// <summary>
    /// Adds a cookie to the <c>Cookie</c> field just written (<c>; name=value</c> before its CRLF), or writes a new
    /// <c>Cookie</c> field when the last thing written is not one.
    /// </summary>
    /// <param name="name">The cookie name.</param>
    /// <param name="value">The cookie value.</param>
    /// <returns>This request.</returns>
    public HttpRequest AddCookie(string name, string value)
    {
        if (!Store.LastFieldEndsCache(out var field) || !HttpSyntax.EqualsIgnoreCase(Store.FieldName(field), "cookie"u8))
            return SetCookie(name, value);
        Store.Cache.Resize(Store.Cache.Size - 2);
        Store.Write("; "u8);
        var cookieName = Store.Write(name);
        Store.Write("="u8);
        var cookieValue = Store.Write(value);
        Store.Write("\r\n"u8);
        Store.ExtendFieldValueToLineEnd(field);
        Store.AddCookie(cookieName.Start, cookieName.Length, cookieValue.Start, cookieValue.Length, name, value);
        return this;
    }

    /// <summary>Writes <c>Content-Length</c>, ends the head and appends <paramref name="body"/> encoded as UTF-8.</summary>
    /// <param name="body">The body text (default "").</param>
    /// <returns>This request.</returns>
    public HttpRequest SetBody(string body = "") => SetBody(body.AsSpan());

    /// <summary>Writes <c>Content-Length</c>, ends the head and appends <paramref name="body"/> encoded as UTF-8.</summary>
    /// <param name="body">The body text.</param>
    /// <returns>This request.</returns>
    public HttpRequest SetBody(ReadOnlySpan<char> body)
    {
        Store.WriteBody(body);
        return this;
    }

    /// <summary>Writes <c>Content-Length</c>, ends the head and appends <paramref name="body"/>.</summary>
    /// <param name="body">The body bytes.</param>
    /// <returns>This request.</returns>
    public HttpRequest SetBody(byte[] body) => SetBody(new ReadOnlySpan<byte>(body));

    /// <summary>Writes <c>Content-Length</c>, ends the head and appends <paramref name="body"/>.</summary>
    /// <param name="body">The body bytes.</param>
    /// <returns>This request.</returns>
    public HttpRequest SetBody(ReadOnlySpan<byte> body)
    {
        Store.WriteBody(body);
        return this;
    }

    /// <summary>Writes <c>Content-Length</c>, ends the head and appends the bytes of <paramref name="body"/> (see <see cref="Buffer.AsSpan"/>).</summary>
    /// <param name="body">The body buffer.</param>
    /// <returns>This request.</returns>
    public HttpRequest SetBody(Buffer body) => SetBody((ReadOnlySpan<byte>)body.AsSpan());

    /// <summary>Writes <c>Content-Length: length</c> and ends the head, without a body: the body is sent separately.</summary>
    /// <param name="length">The length of the body to come.</param>
    /// <returns>This request.</returns>
    public HttpRequest SetBodyLength(int length)
    {
        Store.WriteContentLengthAndEndHead(length);
        return this;
    }

    /// <summary>Makes <c>HEAD url HTTP/1.1</c> with <c>Content-Length: 0</c>.</summary>
    /// <param name="url">The request target.</param>
    /// <returns>This request.</returns>
    public HttpRequest MakeHeadRequest(string url) => SetBegin("HEAD", url).SetBody();

    /// <summary>Makes <c>GET url HTTP/1.1</c> with <c>Content-Length: 0</c>.</summary>
    /// <param name="url">The request target.</param>
    /// <returns>This request.</returns>
    public HttpRequest MakeGetRequest(string url) => SetBegin("GET", url).SetBody();

    /// <summary>Makes a POST of text, with <c>Content-Type</c> when <paramref name="contentType"/> is not empty.</summary>
    /// <param name="url">The request target.</param>
    /// <param name="content">The body text.</param>
    /// <param name="contentType">The content type (default <c>text/plain; charset=UTF-8</c>).</param>
    /// <returns>This request.</returns>
    public HttpRequest MakePostRequest(string url, string content, string contentType = "text/plain; charset=UTF-8")
        => MakeRequest("POST", url, contentType).SetBody(content.AsSpan());

    /// <summary>Makes a POST of text, with <c>Content-Type</c> when <paramref name="contentType"/> is not empty.</summary>
    /// <param name="url">The request target.</param>
    /// <param name="content">The body text.</param>
    /// <param name="contentType">The content type (default <c>text/plain; charset=UTF-8</c>).</param>
    /// <returns>This request.</returns>
    public HttpRequest MakePostRequest(string url, ReadOnlySpan<char> content, string contentType = "text/plain; charset=UTF-8")
        => MakeRequest("POST", url, contentType).SetBody(content);

    /// <summary>Makes a POST of bytes, with <c>Content-Type</c> when <paramref name="contentType"/> is not empty.</summary>
    /// <param name="url">The request target.</param>
    /// <param name="content">The body bytes.</param>
    /// <param name="contentType">The content type (default none).</param>
    /// <returns>This request.</returns>
    public HttpRequest MakePostRequest(string url, byte[] content, string contentType = "")
        => MakeRequest("POST", url, contentType).SetBody(content);

    /// <summary>Makes a POST of bytes, with <c>Content-Type</c> when <paramref name="contentType"/> is not empty.</summary>
    /// <param name="url">The request target.</param>
    /// <param name="content">The body bytes.</param>
    /// <param name="contentType">The content type (default none).</param>
    /// <returns>This request.</returns>
    public HttpRequest MakePostRequest(string url, ReadOnlySpan<byte> content, string contentType = "")
        => MakeRequest("POST", url, contentType).SetBody(content);

    /// <summary>Makes a POST of a buffer's bytes, with <c>Content-Type</c> when <paramref name="contentType"/> is not empty.</summary>
    /// <param name="url">The request target.</param>
    /// <param name="content">The body buffer.</param>
    /// <param name="contentType">The content type (default none).</param>
    /// <returns>This request.</returns>
    public HttpRequest MakePostRequest(string url, Buffer content, string contentType = "")
        => MakeRequest("POST", url, contentType).SetBody(content);

    /// <summary>Makes a PUT of text, with <c>Content-Type</c> when <paramref name="contentType"/> is not empty.</summary>
    /// <param name="url">The request target.</param>
    /// <param name="content">The body text.</param>
    /// <param name="contentType">The content type (default <c>text/plain; charset=UTF-8</c>).</param>
    /// <returns>This request.</returns>
    public HttpRequest MakePutRequest(string url, string content, string contentType = "text/plain; charset=UTF-8")
        => MakeRequest("PUT", url, contentType).SetBody(content.AsSpan());

    /// <summary>Makes a PUT of text, with <c>Content-Type</c> when <paramref name="contentType"/> is not empty.</summary>
    /// <param name="url">The request target.</param>
    /// <param name="content">The body text.</param>
    /// <param name="contentType">The content type (default <c>text/plain; charset=UTF-8</c>).</param>
    /// <returns>This request.</returns>
    public HttpRequest MakePutRequest(string url, ReadOnlySpan<char> content, string contentType = "text/plain; charset=UTF-8")
        => MakeRequest("PUT", url, contentType).SetBody(content);

    /// <summary>Makes a PUT of bytes, with <c>Content-Type</c> when <paramref name="contentType"/> is not empty.</summary>
    /// <param name="url">The request target.</param>
    /// <param name="content">The body bytes.</param>
    /// <param name="contentType">The content type (default none).</param>
    /// <returns>This request.</returns>
    public HttpRequest MakePutRequest(string url, byte[] content, string contentType = "")
        => MakeRequest("PUT", url, contentType).SetBody(content);

    /// <summary>Makes a PUT of bytes, with <c>Content-Type</c> when <paramref name="contentType"/> is not empty.</summary>
    /// <param name="url">The request target.</param>
    /// <param name="content">The body bytes.</param>
    /// <param name="contentType">The content type (default none).</param>
    /// <returns>This request.</returns>
    public HttpRequest MakePutRequest(string url, ReadOnlySpan<byte> content, string contentType = "")
        => MakeRequest("PUT", url, contentType).SetBody(content);

    /// <summary>Makes a PUT of a buffer's bytes, with <c>Content-Type</c> when <paramref name="contentType"/> is not empty.</summary>
    /// <param name="url">The request target.</param>
    /// <param name="content">The body buffer.</param>
    /// <param name="contentType">The content type (default none).</param>
    /// <returns>This request.</returns>
    public HttpRequest MakePutRequest(string url, Buffer content, string contentType = "")
        => MakeRequest("PUT", url, contentType).SetBody(content);

    /// <summary>Makes <c>DELETE url HTTP/1.1</c> with <c>Content-Length: 0</c>.</summary>
    /// <param name="url">The request target.</param>
    /// <returns>This request.</returns>
    public HttpRequest MakeDeleteRequest(string url) => SetBegin("DELETE", url).SetBody();

    /// <summary>Makes <c>OPTIONS url HTTP/1.1</c> with <c>Content-Length: 0</c>.</summary>
    /// <param name="url">The request target.</param>
    /// <returns>This request.</returns>
    public HttpRequest MakeOptionsRequest(string url) => SetBegin("OPTIONS", url).SetBody();

    /// <summary>Makes <c>TRACE url HTTP/1.1</c> with <c>Content-Length: 0</c>.</summary>
    /// <param name="url">The request target.</param>
    /// <returns>This request.</returns>
    public HttpRequest MakeTraceRequest(string url) => SetBegin("TRACE", url).SetBody();

    private HttpRequest MakeRequest(string method, string url, string contentType)
    {
        SetBegin(method, url);
        if (!string.IsNullOrEmpty(contentType))
            Store.WriteField("Content-Type", contentType);
        return this;
    }
}
