using System;
using System.Net.Sockets;
using NetCoreServer.Performance.Common;

namespace NetCoreServer.Performance.MulticastServer;

/// <summary>
/// A secure WebSocket server driven by a <see cref="MulticastPump"/>: each message goes out as one binary message,
/// framed once for all sessions, to the sessions that have completed the TLS handshake and the upgrade.
/// </summary>
internal sealed class MulticastWssServer : WssServer, IBenchmarkServer
{
    private readonly MulticastPump _pump;

    public MulticastWssServer(SslContext context, string address, int port, int rate, int size)
        : base(context, address, port)
    {
        _pump = new MulticastPump(() => ConnectedSessions, message => MulticastBinary(message, 0, message.Length), rate, size);
    }

    string IBenchmarkServer.ListeningOn => Endpoint.ToString() ?? $"{Address}:{Port}";

    bool IBenchmarkServer.Start() => _pump.StartWith(Start);

    bool IBenchmarkServer.Stop() => _pump.StopWith(Stop);

    protected override SslSession CreateSession() => new MulticastWssSession(this, _pump);

    protected override void OnError(SocketError error) => Console.Error.WriteLine($"Multicast server caught an error: {error}");

    protected override void Dispose(bool disposingManagedResources)
    {
        base.Dispose(disposingManagedResources);
        if (disposingManagedResources)
            _pump.Dispose();
    }
}
