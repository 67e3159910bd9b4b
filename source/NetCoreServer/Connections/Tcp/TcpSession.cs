namespace NetCoreServer;

/// <summary>
/// One accepted TCP connection of a <see cref="TcpServer"/>. Subclass it, override the hooks, and return it
/// from <see cref="StreamServer{TSession}.CreateSession"/>. Everything else comes from the shared
/// <see cref="StreamSession"/> and <see cref="StreamConnection"/>.
/// </summary>
public class TcpSession : StreamSession
{
    /// <summary>Creates a session for <paramref name="server"/>; it starts with the server's session options (buffer sizes, idle timeout), shared with the other sessions until one of its own Option properties is written.</summary>
    /// <param name="server">The server that accepted the connection.</param>
    public TcpSession(TcpServer server)
        : base(server)
    {
    }

    /// <summary>The server this session belongs to.</summary>
    public TcpServer Server => (TcpServer)Owner;
}
