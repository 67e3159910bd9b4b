namespace NetCoreServer.Protocols.Http;

/// <summary>
/// Reads responses from a server's byte stream into one <see cref="HttpResponse"/> (see <see cref="HttpMessageReader"/>
/// for the calling contract). Framing follows RFC 9112 §6.3: no body for a response to HEAD, a 2xx to CONNECT, or a
/// 1xx/204/304 status (whatever Content-Length says); chunked when Transfer-Encoding ends in chunked (other codings
/// are left applied to the body); read until the connection closes when Transfer-Encoding does not end in chunked or
/// when neither Content-Length nor Transfer-Encoding is given (then call <see cref="HttpMessageReader.Complete"/> at
/// the end of the stream). Content-Length together with Transfer-Encoding is refused, as for requests.
/// </summary>
internal sealed class HttpResponseReader : HttpMessageReader
{
    private string _requestMethod = "GET";
    private bool _headRequest;
    private bool _connectRequest;

    /// <summary>Creates a reader that fills <paramref name="response"/> (cleared now and at each new message).</summary>
    /// <param name="response">The response to fill; reused for every message.</param>
    /// <param name="limits">The limits to hold the server to; null for the defaults.</param>
    public HttpResponseReader(HttpResponse response, HttpLimits? limits = null)
        : base(request: false, response.Store, limits)
        => Response = response;

    public HttpResponse Response { get; }

    /// <summary>
    /// The method of the request this response answers ("GET" by default; compared case-sensitively): HEAD means no
    /// body, CONNECT means a 2xx has none. Set it before the response's head arrives; it stays across messages.
    /// </summary>
    public string RequestMethod
    {
        get => _requestMethod;
        set
        {
            _requestMethod = value;
            _headRequest = value == "HEAD";
            _connectRequest = value == "CONNECT";
        }
    }

    /// <summary>True when the body lasts until the connection closes (then <see cref="HttpMessageReader.KeepAlive"/> is false).</summary>
    public bool IsReadingUntilClose => Body.IsUntilClose;

    private protected override bool StartBody()
    {
        var head = Head;
        var status = Store.Status;
        if (_headRequest || status < 200 || status == 204 || status == 304 || (_connectRequest && status < 300))
        {
            Body.StartNone();
        }
        else if (head.HasTransferEncoding)
        {
            if (head.ContentLength >= 0)
                return FailFraming(400, "both Content-Length and Transfer-Encoding");
            if (head.Version == 10)
                return FailFraming(400, "Transfer-Encoding in an HTTP/1.0 response");
            if (head.TransferCodings == 0)
                return FailFraming(400, "empty Transfer-Encoding");
            if (!head.ChunkedLast)
                Body.StartUntilClose();
            else if (head.ChunkedCount > 1 || head.ChunkedHasParameters)
                return FailFraming(400, "chunked is applied more than once or has parameters");
            else
                Body.StartChunked();
        }
        else if (head.ContentLength > Limits.MaxBodySize)
        {
            return FailFraming(413, "the body is larger than allowed");
        }
        else if (head.ContentLength >= 0)
        {
            Body.StartLength(head.ContentLength);
        }
        else
        {
            Body.StartUntilClose();
        }
        KeepAlive = PersistentByHead() && !Body.IsUntilClose;
        return true;
    }
}
