using System;
using System.Net;
using System.Net.Sockets;
using System.Threading;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// What NetCoreServer's chat clients do in their disconnect hooks, shared by one client subclass per type: each hook
/// is logged when it returns; OnDisconnected sleeps (the examples sleep a second there) and then connects again unless
/// <see cref="Stop"/> is set, as the examples' <c>_stop</c> flag decides.
/// </summary>
internal sealed class DisconnectOrderProbe
{
    private int _readyCalls;

    public CompatProbe Hooks { get; } = new();

    /// <summary>How long OnDisconnected sleeps before it returns (or reconnects).</summary>
    public TimeSpan DisconnectedDelay { get; set; } = TimeSpan.FromMilliseconds(200);

    /// <summary>The examples' <c>_stop</c>: when false, OnDisconnected calls ConnectAsync.</summary>
    public bool Stop { get; set; } = true;

    /// <summary>Runs inside the first ready hook (OnConnected, OnHandshaked or OnWsConnected), after it is logged.</summary>
    public Action? InsideFirstReady { get; set; }

    public void Hook(string name) => Hooks.Hook(name);

    public void Ready(string name)
    {
        Hooks.Hook(name);
        if (Interlocked.Increment(ref _readyCalls) == 1)
            InsideFirstReady?.Invoke();
    }

    public void Disconnected(Func<bool> connectAsync)
    {
        Thread.Sleep(DisconnectedDelay);
        Hooks.Hook("OnDisconnected");
        if (!Stop)
            connectAsync();
    }
}

/// <summary>A client whose hooks report to a <see cref="DisconnectOrderProbe"/>.</summary>
internal interface IDisconnectOrderClient
{
    DisconnectOrderProbe Probe { get; }
}

internal sealed class OrderTcpClient(IPAddress address, int port) : TcpClient(address, port), IDisconnectOrderClient
{
    public DisconnectOrderProbe Probe { get; } = new();

    protected override void OnConnected() => Probe.Ready("OnConnected");

    protected override void OnDisconnecting() => Probe.Hook("OnDisconnecting");

    protected override void OnDisconnected() => Probe.Disconnected(ConnectAsync);
}

internal sealed class OrderUdsClient(UnixDomainSocketEndPoint endpoint) : UdsClient(endpoint), IDisconnectOrderClient
{
    public DisconnectOrderProbe Probe { get; } = new();

    protected override void OnConnected() => Probe.Ready("OnConnected");

    protected override void OnDisconnecting() => Probe.Hook("OnDisconnecting");

    protected override void OnDisconnected() => Probe.Disconnected(ConnectAsync);
}

internal sealed class OrderSslClient(SslContext context, IPAddress address, int port) : SslClient(context, address, port), IDisconnectOrderClient
{
    public DisconnectOrderProbe Probe { get; } = new();

    protected override void OnConnected() => Probe.Hook("OnConnected");

    protected override void OnHandshaked() => Probe.Ready("OnHandshaked");

    protected override void OnDisconnecting() => Probe.Hook("OnDisconnecting");

    protected override void OnDisconnected() => Probe.Disconnected(ConnectAsync);
}

internal sealed class OrderHttpClient(IPAddress address, int port) : HttpClient(address, port), IDisconnectOrderClient
{
    public DisconnectOrderProbe Probe { get; } = new();

    protected override void OnConnected() => Probe.Ready("OnConnected");

    protected override void OnDisconnecting() => Probe.Hook("OnDisconnecting");

    protected override void OnDisconnected() => Probe.Disconnected(ConnectAsync);
}

internal sealed class OrderHttpsClient(SslContext context, IPAddress address, int port) : HttpsClient(context, address, port), IDisconnectOrderClient
{
    public DisconnectOrderProbe Probe { get; } = new();

    protected override void OnConnected() => Probe.Hook("OnConnected");

    protected override void OnHandshaked() => Probe.Ready("OnHandshaked");

    protected override void OnDisconnecting() => Probe.Hook("OnDisconnecting");

    protected override void OnDisconnected() => Probe.Disconnected(ConnectAsync);
}

internal sealed class OrderWsClient(IPAddress address, int port) : WsClient(address, port), IDisconnectOrderClient
{
    public DisconnectOrderProbe Probe { get; } = new();

    protected override void OnConnected() => Probe.Hook("OnConnected");

    public override void OnWsConnected(HttpResponse response) => Probe.Ready("OnWsConnected");

    public override void OnWsDisconnecting() => Probe.Hook("OnWsDisconnecting");

    protected override void OnDisconnecting() => Probe.Hook("OnDisconnecting");

    public override void OnWsDisconnected() => Probe.Hook("OnWsDisconnected");

    // As NetCoreServer's WsChatClient: base first, then the example's own lines.
    protected override void OnDisconnected()
    {
        base.OnDisconnected();
        Probe.Disconnected(ConnectAsync);
    }
}

internal sealed class OrderWssClient(SslContext context, IPAddress address, int port) : WssClient(context, address, port), IDisconnectOrderClient
{
    public DisconnectOrderProbe Probe { get; } = new();

    protected override void OnConnected() => Probe.Hook("OnConnected");

    protected override void OnHandshaked() => Probe.Hook("OnHandshaked");

    public override void OnWsConnected(HttpResponse response) => Probe.Ready("OnWsConnected");

    public override void OnWsDisconnecting() => Probe.Hook("OnWsDisconnecting");

    protected override void OnDisconnecting() => Probe.Hook("OnDisconnecting");

    public override void OnWsDisconnected() => Probe.Hook("OnWsDisconnected");

    protected override void OnDisconnected()
    {
        base.OnDisconnected();
        Probe.Disconnected(ConnectAsync);
    }
}
