using System.Buffers;
using System.IO.Pipelines;
using System.Text;
using System.Threading.Tasks;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.Primitives;

namespace NetCoreServer.Performance.KestrelServer;

/// <summary>
/// The answer to TRACE that NetCoreServer's <c>MakeTraceResponse(request)</c> gives: 200, <c>Content-Type: message/http</c>,
/// the request as the body, head and body. Kestrel keeps no copy of the bytes it parsed, so the head is written back
/// from what it parsed: the request line with the raw target, then every field (in Kestrel's order, known fields
/// first, which may differ from the order they arrived in), then the body as received.
/// </summary>
internal static class TraceEcho
{
    /// <summary>Reads the whole request body, then writes the response with a Content-Length (no chunking).</summary>
    public static async Task Answer(HttpContext context)
    {
        var reader = context.Request.BodyReader;
        ReadResult read;
        while (true)
        {
            read = await reader.ReadAsync(context.RequestAborted);
            if (read.IsCompleted || read.IsCanceled)
                break;
            // Nothing consumed, everything examined: the next read waits for more.
            reader.AdvanceTo(read.Buffer.Start, read.Buffer.End);
        }

        var body = read.Buffer;
        var target = context.Features.GetRequiredFeature<IHttpRequestFeature>().RawTarget;
        var headLength = HeadLength(context.Request, target);
        var response = context.Response;
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = "message/http";
        response.ContentLength = headLength + body.Length;

        var writer = response.BodyWriter;
        WriteHead(writer, context.Request, target, headLength);
        foreach (var segment in body)
            writer.Write(segment.Span);
        reader.AdvanceTo(body.End);
        await writer.FlushAsync(context.RequestAborted);
    }

    // Kestrel accepts only ASCII (and, with a selector, Latin-1) in heads, so one char is one byte.
    private static int HeadLength(HttpRequest request, string target)
    {
        var length = request.Method.Length + 1 + target.Length + 1 + request.Protocol.Length + 2;
        foreach (var (name, values) in request.Headers)
        {
            foreach (var value in values)
                length += name.Length + 2 + (value?.Length ?? 0) + 2;
        }
        return length + 2;
    }

    private static void WriteHead(PipeWriter writer, HttpRequest request, string target, int headLength)
    {
        var span = writer.GetSpan(headLength);
        var at = 0;
        at += Encoding.Latin1.GetBytes(request.Method, span[at..]);
        span[at++] = (byte)' ';
        at += Encoding.Latin1.GetBytes(target, span[at..]);
        span[at++] = (byte)' ';
        at += Encoding.Latin1.GetBytes(request.Protocol, span[at..]);
        at += Crlf(span[at..]);
        foreach (var (name, values) in request.Headers)
        {
            foreach (var value in (StringValues)values)
            {
                at += Encoding.Latin1.GetBytes(name, span[at..]);
                span[at++] = (byte)':';
                span[at++] = (byte)' ';
                at += Encoding.Latin1.GetBytes(value ?? "", span[at..]);
                at += Crlf(span[at..]);
            }
        }
        at += Crlf(span[at..]);
        writer.Advance(at);
    }

    private static int Crlf(System.Span<byte> span)
    {
        span[0] = (byte)'\r';
        span[1] = (byte)'\n';
        return 2;
    }
}
