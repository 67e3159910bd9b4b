using System;
using System.Net.Sockets;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>A TCP server driven by a <see cref="MulticastPump"/>; with a framing (protocol framed) it publishes framed messages.</summary>
internal sealed class MulticastTcpServer : TcpServer, IBenchmarkServer
{
    private readonly MulticastPump _pump;

    public MulticastTcpServer(string address, int port, int rate, int size, MessageFraming? framing = null)
        : base(address, port)
    {
        Framing = framing;
        _pump = framing is null
            ? new MulticastPump(() => ConnectedSessions, Multicast, rate, size)
            : new MulticastPump(() => ConnectedSessions, message => MulticastMessage(message), rate, size);
    }

    string IBenchmarkServer.ListeningOn => Endpoint.ToString() ?? $"{Address}:{Port}";

    bool IBenchmarkServer.Start() => _pump.StartWith(Start);

    bool IBenchmarkServer.Stop() => _pump.StopWith(Stop);

    protected override TcpSession CreateSession() => new MulticastTcpSession(this, _pump);

    protected override void OnConnected(TcpSession session) => _pump.SessionArrived();

    protected override void OnError(SocketError error) => Console.Error.WriteLine($"Multicast server caught an error: {error}");

    protected override void Dispose(bool disposingManagedResources)
    {
        base.Dispose(disposingManagedResources);
        if (disposingManagedResources)
            _pump.Dispose();
    }
}
