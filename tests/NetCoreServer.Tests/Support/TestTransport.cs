using System.Net;

namespace NetCoreServer.Tests.Support;

/// <summary>A transport the socket suite runs over: it builds the real server and client around the probes.</summary>
public abstract class TestTransport
{
    public static readonly TestTransport Tcp = new TcpTestTransport();

    public static readonly TestTransport Ssl = new SslTestTransport();

    public static readonly TestTransport Uds = new UdsTestTransport();

    /// <summary>TCP with the server's sessions on two of the library's epoll event loops (OptionEventLoops = 2).</summary>
    public static readonly TestTransport TcpLoops = new TcpTestTransport(eventLoops: 2);

    /// <summary>TLS with the server's sessions on two event loops.</summary>
    public static readonly TestTransport SslLoops = new SslTestTransport(eventLoops: 2);

    /// <summary>Unix sockets with the server's sessions on two event loops.</summary>
    public static readonly TestTransport UdsLoops = new UdsTestTransport(eventLoops: 2);

    /// <summary>True for Unix domain sockets (no ports, no address families).</summary>
    public virtual bool IsUnix => false;

    internal abstract IServerControl CreateServer(TestServer probe, IPAddress address);

    internal abstract StreamClient CreateClient(TestClient probe, EndPoint endpoint);

    /// <summary>True when connections handshake before data flows.</summary>
    public virtual bool Secure => false;

    public abstract override string ToString();
}
