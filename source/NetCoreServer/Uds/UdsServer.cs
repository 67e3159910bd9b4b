using System.IO;
using System.Net.Sockets;

namespace NetCoreServer;

/// <summary>
/// Unix domain socket server: the same engine, sessions, hooks, limits and Multicast as <see cref="TcpServer"/>;
/// only the endpoint differs (a file path). A socket file left by a dead server is removed on Start (one still in use
/// makes Start fail with AddressAlreadyInUse); the file is removed on Stop. TCP-only options are ignored.
/// </summary>
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
        : base(endpoint, endpoint.ToString(), 0)
    {
        Path = endpoint.ToString();
    }

    /// <summary>Path of the socket file.</summary>
    public string Path { get; }

    /// <summary>Creates the session object for a newly accepted connection; override to return your subclass.</summary>
    /// <returns>A new <see cref="UdsSession"/>.</returns>
    protected override UdsSession CreateSession() => new(this);

    private protected override void PrepareListener(Socket listener)
    {
        if (!File.Exists(Path))
            return;
        using var probe = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            probe.Connect(new UnixDomainSocketEndPoint(Path));
        }
        catch (SocketException)
        {
            // Nobody answers: the file was left by a server that died without Stop.
            File.Delete(Path);
            return;
        }
        throw new SocketException((int)SocketError.AddressAlreadyInUse);
    }

    private protected override void ListenerClosed()
    {
        try
        {
            File.Delete(Path);
        }
        catch (IOException)
        {
            // Already gone or not ours to remove; the next Start handles a stale file.
        }
    }
}
