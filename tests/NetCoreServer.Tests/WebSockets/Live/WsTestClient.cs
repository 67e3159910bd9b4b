using System;
using System.Net;
using NetCoreServer.Tests.Support;

namespace NetCoreServer.Tests.WebSockets.Live;

/// <summary>The library's WebSocket client over WS or WSS, recording into a <see cref="WsProbe"/> (which does not echo).</summary>
internal sealed class WsTestClient : IDisposable
{
    private readonly StreamClient _client;

    public WsTestClient(WsTransport transport, int port, Action<WsOptions>? configure = null, Action<HttpRequest>? connecting = null)
    {
        Probe.Echo = WsEcho.None;
        if (!transport.IsSecure())
        {
            var client = new PlainClient(port, Probe, connecting);
            configure?.Invoke(client.Ws);
            Peer = client;
            _client = client;
            ReceiveText = client.ReceiveText;
            Response = () => client.LastResponse;
        }
        else
        {
            var client = new SecureClient(port, Probe, connecting);
            configure?.Invoke(client.Ws);
            Peer = client;
            _client = client;
            ReceiveText = client.ReceiveText;
            Response = () => client.LastResponse;
        }
    }

    public WsProbe Probe { get; } = new();

    public IWsPeer Peer { get; }

    public StreamClient Client => _client;

    public Func<string> ReceiveText { get; }

    /// <summary>The server's answer to the upgrade request.</summary>
    public Func<HttpResponse> Response { get; }

    public bool ConnectAsync() => _client.ConnectAsync();

    public bool Connect() => _client.Connect();

    public void Dispose() => _client.Dispose();

    private sealed class PlainClient(int port, WsProbe probe, Action<HttpRequest>? connecting) : WsClient(IPAddress.Loopback, port), IWsPeer
    {
        public HttpResponse LastResponse => Response;

        public override void OnWsConnecting(HttpRequest request) => connecting?.Invoke(request);

        public override void OnWsConnected(HttpResponse response) => probe.Connected(this);

        public override void OnWsReceived(byte[] buffer, long offset, long size) => probe.Received(this, buffer, offset, size);

        public override void OnWsClose(byte[] buffer, long offset, long size, int status) => probe.Closed(buffer, offset, size, status);

        public override void OnWsPong(byte[] buffer, long offset, long size) => probe.Pong.TrySetResult(buffer.AsSpan((int)offset, (int)size).ToArray());

        public override void OnWsError(string error) => probe.Failed(error);

        protected override void OnDisconnected() => probe.Disconnected.TrySetResult(probe.Hook("OnDisconnected"));
    }

    private sealed class SecureClient(int port, WsProbe probe, Action<HttpRequest>? connecting)
        : WssClient(SslTestTransport.DefaultClientContext(), IPAddress.Loopback, port), IWsPeer
    {
        public HttpResponse LastResponse => Response;

        public override void OnWsConnecting(HttpRequest request) => connecting?.Invoke(request);

        public override void OnWsConnected(HttpResponse response) => probe.Connected(this);

        public override void OnWsReceived(byte[] buffer, long offset, long size) => probe.Received(this, buffer, offset, size);

        public override void OnWsClose(byte[] buffer, long offset, long size, int status) => probe.Closed(buffer, offset, size, status);

        public override void OnWsPong(byte[] buffer, long offset, long size) => probe.Pong.TrySetResult(buffer.AsSpan((int)offset, (int)size).ToArray());

        public override void OnWsError(string error) => probe.Failed(error);

        protected override void OnDisconnected() => probe.Disconnected.TrySetResult(probe.Hook("OnDisconnected"));
    }
}
