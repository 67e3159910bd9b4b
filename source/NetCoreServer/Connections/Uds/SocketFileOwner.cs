using System;
using System.IO;
using System.Net.Sockets;

namespace NetCoreServer;

/// <summary>
/// The socket file of a server listening on a <see cref="UnixDomainSocketEndPoint"/>, whatever the server's class
/// (<see cref="UdsServer"/>, or an <see cref="HttpServer"/> given a socket file): before bind it removes a stale file
/// that nobody answers on, at bind it records which file it made, and when the listener closes it removes that file
/// only if the path still holds it. The rules are spelled out on <see cref="UdsServer"/>. Not thread-safe: the
/// server calls it from Start and Stop.
/// </summary>
internal sealed class SocketFileOwner
{
    private readonly UnixDomainSocketEndPoint _endpoint;
    private readonly string _path;

    // The file this server bound, read right after bind; null while nothing is bound.
    private SocketFile? _bound;

    public SocketFileOwner(UnixDomainSocketEndPoint endpoint)
    {
        _endpoint = endpoint;
        _path = endpoint.ToString();
    }

    // Linux abstract names (a leading NUL, shown as '@') have no file.
    private bool IsAbstract => _endpoint.Serialize()[2] == 0;

    /// <summary>Clears the path for bind: removes a stale socket file; throws when a server answers there or the path holds another kind of file.</summary>
    /// <exception cref="SocketException">AddressAlreadyInUse, or the error of the probe connect.</exception>
    public void ClearStale()
    {
        if (IsAbstract)
            return;
        var found = SocketFile.Inspect(_path);
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
                if (SocketFile.Inspect(_path).IsSameSocketFileAs(found))
                    File.Delete(_path);
                return;
            default:
                // Not Linux, or statx unavailable: NetCoreServer's behaviour, anything that does not answer is stale.
                if (!File.Exists(_path))
                    return;
                if (Probe() == SocketError.Success)
                    throw new SocketException((int)SocketError.AddressAlreadyInUse);
                File.Delete(_path);
                return;
        }
    }

    /// <summary>Binds <paramref name="listener"/> to the path and records which file that made.</summary>
    public void Bind(Socket listener)
    {
        // Bound through the wrapper, disposing the socket leaves the path alone (see ServerOwnedEndPoint).
        listener.Bind(new ServerOwnedEndPoint(_endpoint));
        _bound = SocketFile.Inspect(_path);
    }

    /// <summary>After the listener closed (or a Start failed): removes the file bound, if the path still holds it.</summary>
    public void Release()
    {
        if (_bound is not { } bound)
            return;
        _bound = null;
        if (IsAbstract)
            return;
        if (bound.Kind != SocketFile.FileKind.Unknown && !SocketFile.Inspect(_path).IsSameSocketFileAs(bound))
            return;
        try
        {
            File.Delete(_path);
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
