using System.Net;

namespace NetCoreServer.Tests.Support;

/// <summary>A transport the socket suite runs over: it builds the real server and client around the probes.</summary>
public abstract class TestTransport
{
    public static readonly TestTransport Tcp = new TcpTestTransport();

    public static readonly TestTransport Ssl = new SslTestTransport();

    public static readonly TestTransport Uds = new UdsTestTransport();

    /// <summary>True for Unix domain sockets (no ports, no address families).</summary>
    public virtual bool IsUnix => false;

    internal abstract IServerControl CreateServer(TestServer probe, IPAddress address);

    internal abstract StreamClient CreateClient(TestClient probe, EndPoint endpoint);

    /// <summary>True when connections handshake before data flows.</summary>
    public virtual bool Secure => false;

    public abstract override string ToString();
}
