using System;
using System.IO;
using System.Net.Sockets;
using NetCoreServer.Connections;


namespace NetCoreServer;

/// <summary>
/// Unix domain socket server: the same engine, sessions, hooks, limits and Multicast as <see cref="TcpServer"/>;
/// only the endpoint differs (a file path). Setting a TCP-only option (OptionNoDelay, OptionKeepAlive, OptionDualMode,
/// OptionMaxSessionsPerAddress...) throws <see cref="NotSupportedException"/>; <c>Address</c> is the path and
/// <c>Port</c> is 0.
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
/// </summary>
public class UdsServer : StreamServer<UdsSession>
{
    private readonly UnixDomainSocketEndPoint _endpoint;

    // The file this server bound, read right after bind; null while nothing is bound.
    private SocketFile? _bound;

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
        _endpoint = endpoint;
        Path = endpoint.ToString();
    }

    /// <summary>Path of the socket file.</summary>
    public string Path { get; }

    private protected override bool UnixSocket => true;

    // Linux abstract names (a leading NUL, shown as '@') have no file.
    private bool IsAbstract => _endpoint.Serialize()[2] == 0;

    /// <summary>Creates the session object for a newly accepted connection; override to return your subclass.</summary>
    /// <returns>A new <see cref="UdsSession"/>.</returns>
    protected override UdsSession CreateSession() => new(this);

    private protected override void PrepareListener(Socket listener)
    {
        if (IsAbstract)
            return;
        var found = SocketFile.Inspect(Path);
        switch (found.Kind)
        {
            case SocketFile.FileKind.Missing:
                return;
            case SocketFile.FileKind.Other:
                throw new SocketException((int)SocketError.AddressAlreadyInUse);
            case SocketFile.FileKind.Socket:
                var answer = Probe();
                if (answer == SocketError.Success)
                    throw new SocketException((int)SocketError.AddressAlreadyInUse);
                // Only a refused connection says that nobody listens; any other failure (no permission to
                // connect) leaves the file as it is and Start fails with that error.
                if (answer != SocketError.ConnectionRefused)
                    throw new SocketException((int)answer);
                // Unless a server has bound a new file there since the probe.
                if (SocketFile.Inspect(Path).IsSameSocketFileAs(found))
                    File.Delete(Path);
                return;
            default:
                // Not Linux, or statx unavailable: NetCoreServer's behaviour, anything that does not answer is stale.
                if (!File.Exists(Path))
                    return;
                if (Probe() == SocketError.Success)
                    throw new SocketException((int)SocketError.AddressAlreadyInUse);
                File.Delete(Path);
                return;
        }
    }

    private protected override void BindListener(Socket listener)
    {
        // Bound through the wrapper, disposing the socket leaves the path alone (see ServerOwnedEndPoint).
        listener.Bind(new ServerOwnedEndPoint(_endpoint));
        _bound = SocketFile.Inspect(Path);
    }

    private protected override void ListenerClosed()
    {
        if (_bound is not { } bound)
            return;
        _bound = null;
        if (IsAbstract)
            return;
        if (bound.Kind != SocketFile.FileKind.Unknown && !SocketFile.Inspect(Path).IsSameSocketFileAs(bound))
            return;
        try
        {
            File.Delete(Path);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            // Already gone or not ours to remove; the next Start handles a stale file.
        }
    }

    /// <summary>Connects to the path once: <see cref="SocketError.Success"/> when a server answers there.</summary>
    private SocketError Probe()
    {
        using var probe = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            probe.Connect(_endpoint);
            return SocketError.Success;
        }
        catch (SocketException e)
        {
            return e.SocketErrorCode;
        }
    }
}
