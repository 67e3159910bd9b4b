using System;
using System.IO;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Protocols.Http;

/// <summary>
/// Where an <see cref="HttpRequestHandle"/> sends its request's answer: the protocol that received the request, which
/// knows the request by its number (an HTTP/1.1 connection numbers its requests in order).
/// </summary>
internal interface IHttpAnswerTarget
{
    bool SendResponse(long number, HttpResponse response, bool blocking);

    bool SendBody(long number, ReadOnlySpan<byte> body, bool blocking);

    Task<bool> SendStreamAsync(long number, HttpResponse response, Stream body, CancellationToken cancellationToken, long? bodyLength = null);

    bool IsAnswered(long number);
}
