namespace NetCoreServer.Protocols.Http;

/// <summary>
/// Reads requests from a client's byte stream into one <see cref="HttpRequest"/> (see <see cref="HttpMessageReader"/>
/// for the calling contract). Framing follows RFC 9112 §6.3 strictly, refusing every shape that another parser could
/// frame differently (request smuggling): Content-Length together with Transfer-Encoding, chunked not last or
/// repeated, conflicting Content-Length values, Transfer-Encoding in HTTP/1.0 (all 400); a transfer coding other than
/// chunked is 501. A request with neither has no body.
/// </summary>
internal sealed class HttpRequestReader : HttpMessageReader
{
    /// <summary>Creates a reader that fills <paramref name="request"/> (cleared now and at each new message).</summary>
    /// <param name="request">The request to fill; reused for every message.</param>
    /// <param name="limits">The limits to hold the client to; null for the defaults.</param>
    public HttpRequestReader(HttpRequest request, HttpLimits? limits = null)
        : base(request: true, request.Store, limits)
        => Request = request;

    public HttpRequest Request { get; }

    /// <summary>
    /// True when the client waits for <c>100 Continue</c> before sending the body: an HTTP/1.1 request with a body
    /// (Content-Length over 0, or chunked) and <c>Expect: 100-continue</c>. Known once the head is in.
    /// </summary>
    public bool ExpectContinue { get; private set; }

    /// <summary>
    /// A server's choice: a Content-Length over <see cref="HttpLimits.MaxBodySize"/> is not refused when the head is
    /// read but by <see cref="AcceptBody"/>, after the header hook could choose to stream the body.
    /// </summary>
    public bool DeferBodyLimit { get; init; }

    /// <summary>
    /// With <see cref="DeferBodyLimit"/>, after HeaderReady: keeps the body in the request (up to
    /// <see cref="HttpLimits.MaxBodySize"/>), or hands it to <paramref name="sink"/> as it arrives (up to
    /// <paramref name="streamLimit"/>); false (an error, 413) when the declared length is over the limit.
    /// </summary>
    public bool AcceptBody(IHttpBodySink? sink, long streamLimit)
    {
        if (!IsReadingBody)
            return true;
        var limit = sink != null ? streamLimit : Limits.MaxBodySize;
        if (Head.ContentLength > limit)
            return FailFraming(413, "the body is larger than allowed");
        if (sink != null)
            Body.StreamTo(sink, limit);
        return true;
    }

    /// <summary>
    /// Once the head is in: why a server must refuse it with 400 for its Host (RFC 9112 section 3.2: an HTTP/1.1
    /// request has exactly one, and a valid host[:port]), or null when it is fine. A server's rule, not the framing's:
    /// a reader used elsewhere (a proxy, a test) may read a request without Host.
    /// </summary>
    /// <param name="required">False to let a request without Host through (NetCoreServer's own clients send none).</param>
    public string? CheckHost(bool required = true)
    {
        if (Head.Version != 11)
            return null;
        var index = Store.FindField("host"u8);
        if (index < 0 && !required)
            return null;
        if (index < 0 || Store.CountFields("host"u8) != 1)
            return "an HTTP/1.1 request needs exactly one Host header field";
        return HttpSyntax.IsHost(Store.FieldValue(index)) ? null : "the Host header field is not a valid host[:port]";
    }

    private protected override void OnReset() => ExpectContinue = false;

    private protected override bool StartBody()
    {
        var head = Head;
        if (head.HasTransferEncoding)
        {
            if (head.ContentLength >= 0)
                return FailFraming(400, "both Content-Length and Transfer-Encoding");
            if (head.Version == 10)
                return FailFraming(400, "Transfer-Encoding in an HTTP/1.0 request");
            if (head.TransferCodings == 0)
                return FailFraming(400, "empty Transfer-Encoding");
            if (!head.ChunkedLast)
                return FailFraming(400, "chunked is not the final transfer coding");
            if (head.ChunkedCount > 1 || head.ChunkedHasParameters)
                return FailFraming(400, "chunked is applied more than once or has parameters");
            if (head.OtherCodings)
                return FailFraming(501, "a transfer coding other than chunked");
            Body.StartChunked();
        }
        else if (head.ContentLength > Limits.MaxBodySize && !DeferBodyLimit)
        {
            return FailFraming(413, "the body is larger than allowed");
        }
        else
        {
            Body.StartLength(head.ContentLength > 0 ? head.ContentLength : 0);
        }
        KeepAlive = PersistentByHead();
        ExpectContinue = head.ExpectContinue && head.Version == 11 && (Body.IsChunked || head.ContentLength > 0);
        return true;
    }
}
