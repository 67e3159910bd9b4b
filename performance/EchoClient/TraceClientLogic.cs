using System;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.EchoClient;

/// <summary>
/// What one trace client does over http or https, NetCoreServer's HTTP round trip: once it can, it pipelines its whole
/// window (<c>-m</c> TRACE requests, each with a body of <c>-s</c> bytes), then sends one more request for every
/// response, so the same number of requests stays in flight on its connection for the whole run. A 200 response counts
/// as one message (the meter is told <c>-s</c> bytes, so msg/s are responses per second and MiB/s the bodies sent, not
/// the bytes on the wire); any other status counts as an error. The http and https clients forward their hooks here.
/// </summary>
internal sealed class TraceClientLogic(ConnectionMeter meter, HttpRequest request, int window, int size)
{
    private Func<HttpRequest, bool> _send = static _ => false;

    /// <summary>
    /// How to create each client of a run: <paramref name="client"/> around a new logic that reports to the client's
    /// meter, with its own request (sending copies it, but the requests are not shared across threads anyway).
    /// </summary>
    public static Func<ConnectionMeter, IBenchmarkClient> For(EchoClientOptions options, Func<TraceClientLogic, IBenchmarkClient> client)
    {
        var body = new byte[options.Size];
        for (var i = 0; i < body.Length; i++)
            body[i] = (byte)('a' + i % 26);
        // HTTP/1.1 requires Host (RFC 9112, 3.2); an IPv6 literal goes in brackets.
        var host = options.Address.Contains(':') ? $"[{options.Address}]:{options.ResolvedPort}" : $"{options.Address}:{options.ResolvedPort}";
        return meter => client(new TraceClientLogic(meter, new HttpRequest("TRACE", "/").SetHeader("Host", host).SetBody(body), options.Messages, options.Size));
    }

    /// <summary>Call from the client's constructor with its <c>SendRequestAsync</c>.</summary>
    public void Attach(StreamClient client, Func<HttpRequest, bool> send)
    {
        _send = send;
        // What is queued can never exceed the window of requests, which the options already bound.
        client.OptionSendBufferLimit = 0;
    }

    /// <summary>Call once data can flow: from OnConnected over http, from OnHandshaked over https.</summary>
    public void Ready()
    {
        for (var i = 0; i < window; i++)
            _send(request);
        meter.Connected();
    }

    /// <summary>Call from OnReceivedResponse.</summary>
    public void Answered(HttpResponse response)
    {
        if (response.Status == 200)
            meter.Received(size);
        else
            meter.Error();
        _send(request);
    }

    /// <summary>Call from OnDisconnected.</summary>
    public void Disconnected() => meter.Disconnected();

    /// <summary>Call from OnError and OnReceivedResponseError.</summary>
    public void Error() => meter.Error();
}
