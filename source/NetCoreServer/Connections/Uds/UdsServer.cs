using System;
using System.Net.Sockets;
using NetCoreServer.Connections;


namespace NetCoreServer;

/// <summary>
/// Unix domain socket server: the same engine, sessions, hooks, limits and Multicast as <see cref="TcpServer"/>;
/// only the endpoint differs (a file path). Setting a TCP-only option (OptionNoDelay, OptionKeepAlive, OptionDualMode,
/// OptionMaxSessionsPerAddress...) throws <see cref="NotSupportedException"/>; <c>Address</c> is the path and
/// <c>Port</c> is 0.
/// </summary>
/// <remarks>
/// <para>
/// The socket file: Start removes a socket file left by a dead server (nobody answers on it) and binds there. Start
/// fails with a <see cref="SocketException"/> whose <see cref="SocketException.SocketErrorCode"/> is
/// <see cref="SocketError.AddressAlreadyInUse"/>, and touches nothing, when a server still answers on the path or
/// when the path holds anything but a socket file (a regular file, a directory, a symlink), as bind(2) itself does
/// for an existing path. Stop removes the socket file only while it is still the very file this server bound (same
/// device and inode, recorded right after bind), never one a newer server has since bound on the same path.
/// </para>
/// <para>
/// The file type and identity are read on Linux (statx). Elsewhere the server behaves as NetCoreServer does: any
/// existing file that does not answer as a socket is removed on Start, and the path is removed on Stop.
/// </para>
/// </remarks>
public class UdsServer : StreamServer<UdsSession>
{
    /// <summary>Creates a server listening on a socket file.</summary>
    /// <param name="path">Path of the socket file.</param>
    public UdsServer(string path)
        : this(new UnixDomainSocketEndPoint(path))
    {
    }

    /// <summary>Creates a server for a Unix domain socket endpoint.</summary>
    /// <param name="endpoint">The socket endpoint.</param>
    public UdsServer(UnixDomainSocketEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
        Path = endpoint.ToString();
    }

    /// <summary>Path of the socket file.</summary>
    public string Path { get; }

    private protected override bool UnixSocket => true;

    /// <summary>Creates the session object for a newly accepted connection; override to return your subclass.</summary>
    /// <returns>A new <see cref="UdsSession"/>.</returns>
    protected override UdsSession CreateSession() => new(this);
}
