using System.Net;

namespace NetCoreServer.Tests.Support;

/// <summary>A transport the socket suite runs over: it builds the real server and client around the probes.</summary>
public abstract class TestTransport
{
    /// <summary>TCP on the default engine (no option set: the library's event loops on Linux).</summary>
    public static readonly TestTransport Tcp = new TcpTestTransport();

    public static readonly TestTransport Ssl = new SslTestTransport();

    public static readonly TestTransport Uds = new UdsTestTransport();

    /// <summary>TCP with the server's sessions on the runtime's thread pool (OptionEventLoops = 0), not the default loops.</summary>
    public static readonly TestTransport TcpPool = new TcpTestTransport(pool: true);

    /// <summary>TLS with the server's sessions on the thread pool.</summary>
    public static readonly TestTransport SslPool = new SslTestTransport(pool: true);

    /// <summary>Unix sockets with the server's sessions on the thread pool.</summary>
    public static readonly TestTransport UdsPool = new UdsTestTransport(pool: true);

    /// <summary>True for Unix domain sockets (no ports, no address families).</summary>
    public virtual bool IsUnix => false;

    internal abstract IServerControl CreateServer(TestServer probe, IPAddress address);

    internal abstract StreamClient CreateClient(TestClient probe, EndPoint endpoint);

    /// <summary>True when connections handshake before data flows.</summary>
    public virtual bool Secure => false;

    public abstract override string ToString();
}
