using System;
using System.Net.Sockets;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>A Unix domain socket server driven by a <see cref="MulticastPump"/>.</summary>
internal sealed class MulticastUdsServer : UdsServer, IBenchmarkServer
{
    private readonly MulticastPump _pump;

    public MulticastUdsServer(string path, int rate, int size)
        : base(path)
    {
        _pump = new MulticastPump(() => ConnectedSessions, Multicast, rate, size);
    }

    string IBenchmarkServer.ListeningOn => Path;

    bool IBenchmarkServer.Start() => _pump.StartWith(Start);

    bool IBenchmarkServer.Stop() => _pump.StopWith(Stop);

    protected override UdsSession CreateSession() => new MulticastUdsSession(this, _pump);

    protected override void OnConnected(UdsSession session) => _pump.SessionArrived();

    protected override void OnError(SocketError error) => Console.Error.WriteLine($"Multicast server caught an error: {error}");

    protected override void Dispose(bool disposingManagedResources)
    {
        base.Dispose(disposingManagedResources);
        if (disposingManagedResources)
            _pump.Dispose();
    }
}
