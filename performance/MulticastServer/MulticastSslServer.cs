using System;
using System.Net.Sockets;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>
/// A TLS server driven by a <see cref="MulticastPump"/>. A session is multicast to from OnConnected on, so messages
/// wait in its queue (within its limit) until its handshake completes.
/// </summary>
internal sealed class MulticastSslServer : SslServer, IBenchmarkServer
{
    private readonly MulticastPump _pump;

    public MulticastSslServer(SslContext context, string address, int port, int rate, int size)
        : base(context, address, port)
    {
        _pump = new MulticastPump(() => ConnectedSessions, Multicast, rate, size);
    }

    string IBenchmarkServer.ListeningOn => Endpoint.ToString() ?? $"{Address}:{Port}";

    bool IBenchmarkServer.Start() => _pump.StartWith(Start);

    bool IBenchmarkServer.Stop() => _pump.StopWith(Stop);

    protected override SslSession CreateSession() => new MulticastSslSession(this, _pump);

    protected override void OnConnected(SslSession session) => _pump.SessionArrived();

    protected override void OnError(SocketError error) => Console.Error.WriteLine($"Multicast server caught an error: {error}");

    protected override void Dispose(bool disposingManagedResources)
    {
        base.Dispose(disposingManagedResources);
        if (disposingManagedResources)
            _pump.Dispose();
    }
}
