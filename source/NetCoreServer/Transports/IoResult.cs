using System.Net.Sockets;

namespace NetCoreServer.Transports;

/// <summary>Outcome of one transport operation: bytes moved, or the error that stopped it.</summary>
/// <remarks>Errors travel as values, not exceptions, so a dropped connection costs no throw on the hot path.</remarks>
internal readonly struct IoResult
{
    public IoResult(int bytes, SocketError error)
    {
        Bytes = bytes;
        Error = error;
    }

    public int Bytes { get; }

    public SocketError Error { get; }

    public bool Succeeded => Error == SocketError.Success;

    public static IoResult Failed(SocketError error) => new(0, error);
}
