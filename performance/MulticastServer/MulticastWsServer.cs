using System;
using System.Net.Sockets;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>
/// A WebSocket server driven by a <see cref="MulticastPump"/>: each message goes out as one binary message, framed
/// once for all sessions. Only upgraded sessions get it, so a session counts for the pump from its upgrade on.
/// </summary>
internal sealed class MulticastWsServer : WsServer, IBenchmarkServer
{
    private readonly MulticastPump _pump;

    public MulticastWsServer(string address, int port, int rate, int size)
        : base(address, port)
    {
        _pump = new MulticastPump(() => ConnectedSessions, message => MulticastBinary(message, 0, message.Length), rate, size);
    }

    string IBenchmarkServer.ListeningOn => Endpoint.ToString() ?? $"{Address}:{Port}";

    bool IBenchmarkServer.Start() => _pump.StartWith(Start);

    bool IBenchmarkServer.Stop() => _pump.StopWith(Stop);

    protected override TcpSession CreateSession() => new MulticastWsSession(this, _pump);

    protected override void OnError(SocketError error) => Console.Error.WriteLine($"Multicast server caught an error: {error}");

    protected override void Dispose(bool disposingManagedResources)
    {
        base.Dispose(disposingManagedResources);
        if (disposingManagedResources)
            _pump.Dispose();
    }
}
