namespace NetCoreServer;

/// <summary>One accepted connection of a <see cref="UdsServer"/>; everything comes from <see cref="StreamSession"/>.</summary>
public class UdsSession : StreamSession
{
    /// <summary>Creates a session for <paramref name="server"/>; it starts with the server's session options (buffer sizes, idle timeout), shared with the other sessions until one of its own Option properties is written.</summary>
    /// <param name="server">The server that accepted the connection.</param>
    public UdsSession(UdsServer server)
        : base(server)
    {
    }

    /// <summary>The server this session belongs to.</summary>
    public UdsServer Server => (UdsServer)Owner;
}
