using System;
using System.Net;
using System.Net.Sockets;
using NetCoreServer.Tests.Support;

namespace NetCoreServer.Tests.WebSockets.Live;

/// <summary>Which WebSocket the live tests run over.</summary>
public enum WsTransport
{
    Ws,
    Wss,
}

/// <summary>A started test server over WS or WSS, with what the tests call on it whatever its class.</summary>
internal sealed class WsTestServer : IDisposable
{
    private readonly IDisposable _server;

    public WsTestServer(WsTransport transport, Action<WsOptions>? configure = null, Action<HttpOptions>? http = null)
    {
        Transport = transport;
        if (transport == WsTransport.Ws)
        {
            var server = new PlainServer(Probe);
            configure?.Invoke(server.Ws);
            http?.Invoke(server.Http);
            server.Start();
            Port = ((IPEndPoint)server.Endpoint).Port;
            MulticastText = text => server.MulticastText(text);
            MulticastBinary = bytes => server.MulticastBinary(bytes);
            MulticastPing = bytes => server.MulticastPing(bytes);
            CloseAll = (status, reason) => server.CloseAll(status, reason);
            _server = server;
        }
        else
        {
            var server = new SecureServer(SslTestTransport.DefaultServerContext(), Probe);
            configure?.Invoke(server.Ws);
            http?.Invoke(server.Http);
            server.Start();
            Port = ((IPEndPoint)server.Endpoint).Port;
            MulticastText = text => server.MulticastText(text);
            MulticastBinary = bytes => server.MulticastBinary(bytes);
            MulticastPing = bytes => server.MulticastPing(bytes);
            CloseAll = (status, reason) => server.CloseAll(status, reason);
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

    public void Dispose() => _server.Dispose();

    private sealed class PlainServer(WsProbe probe) : WsServer(IPAddress.Loopback, 0)
    {
        protected override TcpSession CreateSession() => new PlainSession(this, probe);
    }

    private sealed class SecureServer(SslContext context, WsProbe probe) : WssServer(context, IPAddress.Loopback, 0)
    {
        protected override SslSession CreateSession() => new SecureSession(this, probe);
    }

    private sealed class PlainSession(WsServer server, WsProbe probe) : WsSession(server), IWsPeer
    {
        protected override void OnConnected() => probe.Hook("OnConnected");

        protected override void OnReceivedRequestHeader(HttpRequest request) => probe.Hook("OnReceivedRequestHeader");

        protected override void OnReceivedRequest(HttpRequest request) => SendResponseAsync(Response.MakeGetResponse("plain HTTP"));

        public override bool OnWsConnecting(HttpRequest request, HttpResponse response) => probe.Hook("OnWsConnecting") && probe.Connecting(request, response);

        public override void OnWsConnected(HttpRequest request) => probe.Connected(this);

        public override void OnWsReceived(byte[] buffer, long offset, long size) => probe.Received(this, buffer, offset, size);

        public override void OnWsClose(byte[] buffer, long offset, long size, int status) => probe.Closed(buffer, offset, size, status);

        public override void OnWsPong(byte[] buffer, long offset, long size) => probe.Pong.TrySetResult(buffer.AsSpan((int)offset, (int)size).ToArray());

        public override void OnWsError(string error) => probe.Failed(error);

        public override void OnWsDisconnecting() => probe.Hook("OnWsDisconnecting");

        public override void OnWsDisconnected() => probe.Hook("OnWsDisconnected");

        protected override void OnDisconnecting() => probe.Hook("OnDisconnecting");

        protected override void OnDisconnected() => probe.Disconnected.TrySetResult(probe.Hook("OnDisconnected"));
    }

    private sealed class SecureSession(WssServer server, WsProbe probe) : WssSession(server), IWsPeer
    {
        protected override void OnConnected() => probe.Hook("OnConnected");

        protected override void OnReceivedRequestHeader(HttpRequest request) => probe.Hook("OnReceivedRequestHeader");

        protected override void OnReceivedRequest(HttpRequest request) => SendResponseAsync(Response.MakeGetResponse("plain HTTP"));

        public override bool OnWsConnecting(HttpRequest request, HttpResponse response) => probe.Hook("OnWsConnecting") && probe.Connecting(request, response);

        public override void OnWsConnected(HttpRequest request) => probe.Connected(this);

        public override void OnWsReceived(byte[] buffer, long offset, long size) => probe.Received(this, buffer, offset, size);

        public override void OnWsClose(byte[] buffer, long offset, long size, int status) => probe.Closed(buffer, offset, size, status);

        public override void OnWsPong(byte[] buffer, long offset, long size) => probe.Pong.TrySetResult(buffer.AsSpan((int)offset, (int)size).ToArray());

        public override void OnWsError(string error) => probe.Failed(error);

        public override void OnWsDisconnecting() => probe.Hook("OnWsDisconnecting");

        public override void OnWsDisconnected() => probe.Hook("OnWsDisconnected");

        protected override void OnDisconnecting() => probe.Hook("OnDisconnecting");

        protected override void OnDisconnected() => probe.Disconnected.TrySetResult(probe.Hook("OnDisconnected"));
    }
}
