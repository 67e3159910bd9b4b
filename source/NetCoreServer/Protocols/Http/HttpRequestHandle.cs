using System;
using System.IO;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Protocols.Http;

namespace NetCoreServer;

/// <summary>
/// Answers exactly one request received by an <see cref="HttpSession"/> or <see cref="HttpsSession"/>, later and from
/// any thread. Take it from <see cref="HttpRequest.Handle"/> in a request hook: the request object is reused for the
/// next request, this handle is not.
/// </summary>
/// <remarks>
/// A connection answers one request at a time, in order: the next pipelined request is handed over only once this
/// one's response is completely queued, and a request left unanswered for <see cref="HttpOptions.ResponseTimeout"/>
/// gets a 503 and the connection closes. Every method returns false, sending nothing, once the request is answered
/// (by this handle, the session's SendResponse methods or the timeout) or the connection closed.
/// </remarks>
public sealed class HttpRequestHandle
{
    private readonly IHttpAnswerTarget _target;

    internal HttpRequestHandle(IHttpAnswerTarget target, long number)
    {
        _target = target;
        Number = number;
    }

    /// <summary>The request's number on its connection, from 1 in the order received.</summary>
    public long Number { get; }

    /// <summary>True once nothing more can be sent for the request: its response is completely queued, it was answered on timeout, or the connection closed.</summary>
    public bool IsAnswered => _target.IsAnswered(Number);

    /// <summary>
    /// Queues <paramref name="response"/> as this request's answer (a HEAD request gets its head only) and returns at
    /// once; when the request asked to close the connection, it closes once this is out.
    /// </summary>
    /// <param name="response">The response (copied before the call returns).</param>
    /// <returns>True when queued; false when the request was answered already or the connection closed.</returns>
    public bool SendResponseAsync(HttpResponse response)
    {
        ArgumentNullException.ThrowIfNull(response);
        return _target.SendResponse(Number, response, blocking: false);
    }

    /// <summary>Queues more body bytes of this request's response, whose head declared them (<see cref="HttpResponse.SetBodyLength"/>).</summary>
    /// <param name="body">Body bytes (copied before the call returns).</param>
    /// <returns>True when queued; false when no response of this request is under way, or it declared fewer bytes.</returns>
    public bool SendResponseBodyAsync(ReadOnlySpan<byte> body) => _target.SendBody(Number, body, blocking: false);

    /// <summary>
    /// Answers this request with a body read from <paramref name="body"/> as it goes out (see
    /// <see cref="HttpSession.SendResponseStreamAsync"/>): set only the start line and headers of <paramref name="response"/>.
    /// </summary>
    /// <param name="response">The response head.</param>
    /// <param name="body">The body; read to its end, not disposed.</param>
    /// <param name="cancellationToken">Stops reading the body (the connection is then closed).</param>
    /// <returns>True when the whole response was queued; false when the request was answered already or the connection closed.</returns>
    public Task<bool> SendResponseStreamAsync(HttpResponse response, Stream body, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(response);
        ArgumentNullException.ThrowIfNull(body);
        return _target.SendStreamAsync(Number, response, body, cancellationToken);
    }
}
