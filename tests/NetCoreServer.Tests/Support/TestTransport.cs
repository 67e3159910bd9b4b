using System.Net;

namespace NetCoreServer.Tests.Support;

/// <summary>A transport the socket suite runs over: it builds the real server and client around the probes.</summary>
public abstract class TestTransport
{
    public static readonly TestTransport Tcp = new TcpTestTransport();

    public static readonly TestTransport Ssl = new SslTestTransport();

    internal abstract IServerControl CreateServer(TestServer probe, IPAddress address);

    internal abstract StreamClient CreateClient(TestClient probe, EndPoint endpoint);

    /// <summary>True when connections handshake before data flows.</summary>
    public virtual bool Secure => false;

    public abstract override string ToString();
}
