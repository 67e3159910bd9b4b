using System;

// twin: NetCoreServer.Tests.WebSockets.Live.WsTestPlainSession NetCoreServer.Tests.WebSockets.Live.WsTestSecureSession
    private readonly WsProbe _probe;

    protected override void OnConnected() => _probe.Hook("OnConnected");

    protected override void OnReceivedRequestHeader(HttpRequest request) => _probe.Hook("OnReceivedRequestHeader");

    protected override void OnReceivedRequest(HttpRequest request) => SendResponseAsync(Response.MakeGetResponse("plain HTTP"));

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
