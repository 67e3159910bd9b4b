using System;
using System.Collections.Generic;

namespace NetCoreServer.Protocols.Http;

/// <summary>What the client side of HTTP needs from its client: <see cref="HttpClient"/> (TCP) or <see cref="HttpsClient"/> (TLS).</summary>
internal interface IHttpClientHost
{
    void RaiseResponseHeader(HttpResponse response);

    void RaiseResponse(HttpResponse response);

    void RaiseResponseError(HttpResponse response, string error);

    bool SendMessage(ReadOnlySpan<byte> head, ReadOnlySpan<byte> body, bool blocking);

    /// <summary>The Host field value for the server connected to: host[:port], an IPv6 address in brackets.</summary>
    string HostField { get; }

    void Disconnect();
}

/// <summary>
/// The client side of HTTP/1.1 on one connection, with no socket in it: sends requests (each as one unit) and reads
/// their responses in order, knowing which request each answers (a HEAD response has no body). A response that cannot
/// be read raises the error hook and closes the connection; one read until the server closes completes then.
/// </summary>
internal sealed class HttpClientProtocol : IStreamProtocol
{
    private readonly IHttpClientHost _client;
    private HttpResponse _response;
    private HttpResponseReader _reader;
    private readonly object _lock = new();

    // The methods of the requests sent and not answered yet, oldest first.
    private readonly Queue<string> _methods = new();
    private bool _failed;

    public HttpClientProtocol(IHttpClientHost client, HttpResponse response)
    {
        _client = client;
        _response = response;
        _reader = new HttpResponseReader(response);
    }

    /// <summary>The response messages are read into; replacing it takes effect from the next response.</summary>
    public HttpResponse Response
    {
        get => _response;
        set
        {
            _response = value;
            _reader = new HttpResponseReader(value);
        }
    }

    /// <summary>Forgets requests of an earlier connection (a reconnect starts afresh).</summary>
    public void Restart()
    {
        lock (_lock)
        {
            _methods.Clear();
            _failed = false;
        }
        _reader.Reset();
    }

    private static byte[] WithHost(ReadOnlySpan<byte> head, string host)
    {
        var field = System.Text.Encoding.ASCII.GetBytes("Host: " + host + "\r\n\r\n");
        var bytes = new byte[head.Length - 2 + field.Length];
        head[..^2].CopyTo(bytes);
        field.CopyTo(bytes.AsSpan(head.Length - 2));
        return bytes;
    }

    public bool SendRequest(HttpRequest request, bool blocking)
    {
        lock (_lock)
            _methods.Enqueue(request.Method);
        request.Store.Split(out var head, out var body);
        if (request.Store.FindField("host"u8) < 0 && head.EndsWith("\r\n\r\n"u8) && request.Protocol == "HTTP/1.1")
        {
            // RFC 9112 section 3.2: servers refuse an HTTP/1.1 request without Host, and NetCoreServer's Make*Request
            // methods add none, so the client adds it, as other HTTP clients do.
            head = WithHost(head, _client.HostField);
        }
        if (_client.SendMessage(head, body, blocking))
            return true;
        lock (_lock)
        {
            // Refused (not connected): it will get no answer.
            if (_methods.Count > 0)
                _methods.Clear();
        }
        return false;
    }

    public int Received(ReadOnlySpan<byte> data)
    {
        if (_failed)
            return data.Length;
        var total = 0;
        while (true)
        {
            if (!_reader.IsReadingBody)
                _reader.RequestMethod = PeekMethod();
            var result = _reader.Read(data[total..], out var consumed);
            total += consumed;
            switch (result)
            {
                case HttpReadResult.NeedMoreData:
                    return total;
                case HttpReadResult.HeaderReady:
                    _client.RaiseResponseHeader(_response);
                    break;
                case HttpReadResult.MessageReady:
                    Answered();
                    // The response stays as it is until more bytes arrive (HttpClientEx hands it to a task).
                    if (total == data.Length)
                        return total;
                    break;
                default:
                    Fail(_reader.ErrorReason);
                    return data.Length;
            }
        }
    }

    /// <summary>The server closed: a response read until close is complete now; one cut short is an error.</summary>
    public void StreamEnded()
    {
        if (_failed)
            return;
        switch (_reader.Complete())
        {
            case HttpReadResult.MessageReady:
                Answered();
                break;
            case HttpReadResult.Error:
                Fail(_reader.ErrorReason);
                break;
        }
    }

    private void Answered()
    {
        // 1xx responses (100 Continue) are interim: the final response to the same request follows.
        if (_response.Status is >= 200 or < 100)
        {
            lock (_lock)
            {
                if (_methods.Count > 0)
                    _methods.Dequeue();
            }
            _client.RaiseResponse(_response);
        }
    }

    private string PeekMethod()
    {
        lock (_lock)
            return _methods.Count > 0 ? _methods.Peek() : "GET";
    }

    private void Fail(string error)
    {
        _failed = true;
        _client.RaiseResponseError(_response, error);
        _client.Disconnect();
    }
}
