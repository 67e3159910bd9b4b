using System.Net.Sockets;
using NetCoreServer.Connections;


namespace NetCoreServer;

/// <summary>Unix domain socket client; connecting lives in <see cref="StreamClient"/>, data in <see cref="StreamConnection"/>.</summary>
public class UdsClient : StreamClient
{
    /// <summary>Creates a client for a socket file.</summary>
    /// <param name="path">Path of the server's socket file.</param>
    public UdsClient(string path)
        : this(new UnixDomainSocketEndPoint(path))
    {
    }

    /// <summary>Creates a client for a Unix domain socket endpoint.</summary>
    /// <param name="endpoint">The server's endpoint.</param>
    public UdsClient(UnixDomainSocketEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
    }
}
