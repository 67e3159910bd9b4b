using System;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using NetCoreServer.Tests.Support;

namespace NetCoreServer.Tests.WebSockets.Live;

/// <summary>Which WebSocket the live tests run over.</summary>
public enum WsTransport
{
    Ws,
    Wss,

    /// <summary>WS with the server's sessions on the runtime's thread pool (OptionEventLoops = 0).</summary>
    WsPool,

    /// <summary>WSS with the server's sessions on the thread pool.</summary>
    WssPool,
}

/// <summary>What a <see cref="WsTransport"/> stands for.</summary>
public static class WsTransports
{
    public static bool IsSecure(this WsTransport transport) => transport is WsTransport.Wss or WsTransport.WssPool;

    /// <summary>True when the server's sessions run on the thread pool rather than the default engine.</summary>
    public static bool IsPool(this WsTransport transport) => transport is WsTransport.WsPool or WsTransport.WssPool;
}

/// <summary>How the WS test sessions answer plain HTTP requests: /never not at all, /late with an empty 200 from another thread 300 ms later, anything else "plain HTTP" at once.</summary>
internal static class WsTestRoutes
{
    public static void Answer(HttpRequest request, HttpResponse response, Func<HttpResponse, bool> send)
    {
        switch (request.Url)
        {
            case "/never":
                return;
            case "/late":
                _ = Task.Run(async () =>
                {
                    await Task.Delay(300);
                    send(new HttpResponse().MakeOkResponse());
                });
                return;
            default:
                send(response.MakeGetResponse("plain HTTP"));
                return;
        }
    }
}

/// <summary>A started test server over WS or WSS, with what the tests call on it whatever its class.</summary>
internal sealed class WsTestServer : IDisposable
{
    private readonly IDisposable _server;

    public WsTestServer(WsTransport transport, Action<WsOptions>? configure = null, Action<HttpOptions>? http = null, TimeProvider? time = null)
    {
        Transport = transport;
        if (!transport.IsSecure())
        {
            var server = new PlainServer(Probe).OnEngine(transport.IsPool());
            configure?.Invoke(server.Ws);
            http?.Invoke(server.Http);
            if (time != null)
                server.OptionTimeProvider = time;
            server.Start();
            Port = ((IPEndPoint)server.Endpoint).Port;
            MulticastText = text => server.MulticastText(text);
            MulticastBinary = bytes => server.MulticastBinary(bytes);
            MulticastPing = bytes => server.MulticastPing(bytes);
            CloseAll = (status, reason) => server.CloseAll(status, reason);
            SkippedMulticasts = () => server.SkippedMulticasts;
            SlowConsumerEpisodes = () => server.SlowConsumerEpisodes;
            _server = server;
        }
        else
        {
            var server = new SecureServer(SslTestTransport.DefaultServerContext(), Probe).OnEngine(transport.IsPool());
            configure?.Invoke(server.Ws);
            http?.Invoke(server.Http);
            if (time != null)
                server.OptionTimeProvider = time;
            server.Start();
            Port = ((IPEndPoint)server.Endpoint).Port;
            MulticastText = text => server.MulticastText(text);
            MulticastBinary = bytes => server.MulticastBinary(bytes);
            MulticastPing = bytes => server.MulticastPing(bytes);
            CloseAll = (status, reason) => server.CloseAll(status, reason);
            SkippedMulticasts = () => server.SkippedMulticasts;
            SlowConsumerEpisodes = () => server.SlowConsumerEpisodes;
            _server = server;
        }
    }

    public WsTransport Transport { get; }

    public WsProbe Probe { get; } = new();

    public int Port { get; }

    public Func<string, bool> MulticastText { get; }

    public Func<byte[], bool> MulticastBinary { get; }

    public Func<byte[], bool> MulticastPing { get; }

    public Func<int, string, bool> CloseAll { get; }

    public Func<long> SkippedMulticasts { get; }

    public Func<long> SlowConsumerEpisodes { get; }

    public void Dispose() => _server.Dispose();

    private sealed class PlainServer(WsProbe probe) : WsServer(IPAddress.Loopback, 0)
    {
        protected override TcpSession CreateSession() => new WsTestPlainSession(this, probe);
    }

    private sealed class SecureServer(SslContext context, WsProbe probe) : WssServer(context, IPAddress.Loopback, 0)
    {
        protected override SslSession CreateSession() => new WsTestSecureSession(this, probe);
    }
}

/// <summary>A session of the WS test server; its hooks forward to the <see cref="WsProbe"/>, as <see cref="WsTestSecureSession"/>'s do.</summary>
internal sealed class WsTestPlainSession : WsSession, IWsPeer
{
    public WsTestPlainSession(WsServer server, WsProbe probe)
        : base(server) => _probe = probe;

    private readonly WsProbe _probe;

    protected override void OnConnected() => _probe.Hook("OnConnected");

    protected override void OnReceivedRequestHeader(HttpRequest request) => _probe.Hook("OnReceivedRequestHeader");

    protected override void OnReceivedRequest(HttpRequest request) => WsTestRoutes.Answer(request, Response, SendResponseAsync);

    public override bool OnWsConnecting(HttpRequest request, HttpResponse response) => _probe.Hook("OnWsConnecting") && _probe.Connecting(request, response);

    public override void OnWsConnected(HttpRequest request) => _probe.Connected(this);

    public override void OnWsReceived(byte[] buffer, long offset, long size) => _probe.Received(this, buffer, offset, size);

    public override void OnWsClose(byte[] buffer, long offset, long size, int status) => _probe.Closed(buffer, offset, size, status);

    public override void OnWsPong(byte[] buffer, long offset, long size) => _probe.Pong.TrySetResult(buffer.AsSpan((int)offset, (int)size).ToArray());

    public override void OnWsError(string error) => _probe.Failed(error);

    public override void OnWsDisconnecting() => _probe.Hook("OnWsDisconnecting");

    public override void OnWsDisconnected() => _probe.Hook("OnWsDisconnected");

    protected override void OnDisconnecting() => _probe.Hook("OnDisconnecting");

    protected override void OnDisconnected() => _probe.Disconnected.TrySetResult(_probe.Hook("OnDisconnected"));

    protected override void OnSlowConsumer() => _probe.Hook("OnSlowConsumer");

    protected override void OnError(System.Net.Sockets.SocketError error) => _probe.SocketErrors.Enqueue(error);
}

/// <summary>A session of the WSS test server; its hooks forward to the <see cref="WsProbe"/>, as <see cref="WsTestPlainSession"/>'s do.</summary>
internal sealed class WsTestSecureSession : WssSession, IWsPeer
{
    public WsTestSecureSession(WssServer server, WsProbe probe)
        : base(server) => _probe = probe;

    private readonly WsProbe _probe;

    protected override void OnConnected() => _probe.Hook("OnConnected");

    protected override void OnReceivedRequestHeader(HttpRequest request) => _probe.Hook("OnReceivedRequestHeader");

    protected override void OnReceivedRequest(HttpRequest request) => WsTestRoutes.Answer(request, Response, SendResponseAsync);

    public override bool OnWsConnecting(HttpRequest request, HttpResponse response) => _probe.Hook("OnWsConnecting") && _probe.Connecting(request, response);

    public override void OnWsConnected(HttpRequest request) => _probe.Connected(this);

    public override void OnWsReceived(byte[] buffer, long offset, long size) => _probe.Received(this, buffer, offset, size);

    public override void OnWsClose(byte[] buffer, long offset, long size, int status) => _probe.Closed(buffer, offset, size, status);

    public override void OnWsPong(byte[] buffer, long offset, long size) => _probe.Pong.TrySetResult(buffer.AsSpan((int)offset, (int)size).ToArray());

    public override void OnWsError(string error) => _probe.Failed(error);

    public override void OnWsDisconnecting() => _probe.Hook("OnWsDisconnecting");

    public override void OnWsDisconnected() => _probe.Hook("OnWsDisconnected");

    protected override void OnDisconnecting() => _probe.Hook("OnDisconnecting");

    protected override void OnDisconnected() => _probe.Disconnected.TrySetResult(_probe.Hook("OnDisconnected"));

    protected override void OnSlowConsumer() => _probe.Hook("OnSlowConsumer");

    protected override void OnError(System.Net.Sockets.SocketError error) => _probe.SocketErrors.Enqueue(error);
}
