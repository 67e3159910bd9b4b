using System.Net.Sockets;
using System.Threading;

namespace NetCoreServer.Examples;

/// <summary>
/// What happened to a client's connection during one request: whether a connection was made and the last socket
/// error its <c>OnError</c> hook reported. With it a console tells a refused connect (no connection and no error:
/// the library keeps refusals out of <c>OnError</c>) from one that failed otherwise or broke after connecting.
/// </summary>
/// <remarks>Thread-safe: hooks report on thread-pool threads while the console reads.</remarks>
public sealed class ConnectionEvents
{
    private int _connected;
    private int _error;

    /// <summary>True when <see cref="Connected"/> was called since <see cref="Clear"/>.</summary>
    public bool HasConnected => Volatile.Read(ref _connected) != 0;

    /// <summary>The last error given to <see cref="Failed"/> since <see cref="Clear"/>; <see cref="SocketError.Success"/> for none.</summary>
    public SocketError LastError => (SocketError)Volatile.Read(ref _error);

    /// <summary>Call from the client's <c>OnConnected</c>.</summary>
    public void Connected() => Volatile.Write(ref _connected, 1);

    /// <summary>Call from the client's <c>OnError</c>.</summary>
    /// <param name="error">The reported error.</param>
    public void Failed(SocketError error) => Volatile.Write(ref _error, (int)error);

    /// <summary>Forgets what happened; call before each request.</summary>
    public void Clear()
    {
        Volatile.Write(ref _connected, 0);
        Volatile.Write(ref _error, (int)SocketError.Success);
    }
}
