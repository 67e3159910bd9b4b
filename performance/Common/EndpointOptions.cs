using CommandLine;

namespace NetCoreServer.Performance.Common;

/// <summary>
/// Options every benchmark program has: which protocol it speaks and where the server is, an address and a port, or
/// for uds a socket file.
/// </summary>
public class EndpointOptions : IValidatedOptions
{
    /// <summary>Server address (<c>-a</c>); default 127.0.0.1. Not used by uds.</summary>
    [Option('a', "address", Default = "127.0.0.1", HelpText = "Server address (not for uds).")]
    public string Address { get; set; } = "127.0.0.1";

    /// <summary>Server port (<c>-p</c>); when not given, the protocol's usual port (1111 for tcp). Not allowed for uds.</summary>
    [Option('p', "port", HelpText = "Server port (default: 1111 for tcp, 2222 ssl, 3333 udp (3334 for udp multicast), 8080 http/ws, 8443 https/wss; uds uses --path).")]
    public int? Port { get; set; }

    /// <summary>
    /// The server's socket file for uds (<c>--path</c>); when not given, <see cref="DefaultPath"/>. Not allowed for the
    /// other protocols.
    /// </summary>
    [Option("path", HelpText = "uds: the server's socket file (default: netcoreserver-<benchmark>.sock in the temp folder, e.g. /tmp/netcoreserver-echo.sock).")]
    public string? Path { get; set; }

    /// <summary>Protocol (<c>--protocol</c>); default tcp.</summary>
    [Option("protocol", Default = "tcp", HelpText = "Protocol: tcp, framed (tcp with 4-byte length-prefixed messages), ssl, uds, udp, ws, wss, and for the echo benchmark http and https (a TRACE round trip), as the program implements them.")]
    public string Protocol { get; set; } = "tcp";

    /// <summary>
    /// The socket file used when <c>--path</c> is not given. Not a command-line option: the program sets it, because
    /// each benchmark has its own (see <see cref="Protocols.DefaultSocketPath"/>).
    /// </summary>
    public string DefaultPath { get; set; } = Protocols.DefaultSocketPath("benchmark");

    /// <summary>The port to use: the one given, or the protocol's default.</summary>
    public int ResolvedPort => Port ?? DefaultPortFor(Protocol);

    /// <summary>The socket file to use: the one given, or <see cref="DefaultPath"/>.</summary>
    public string ResolvedPath => Path ?? DefaultPath;

    /// <summary>True when the protocol reaches the server through a socket file (uds).</summary>
    public bool UsesSocketFile => Protocols.UsesSocketFile(Protocol);

    /// <summary>Where the server is, for messages: "127.0.0.1:1111", or the socket file for uds.</summary>
    public string Target => UsesSocketFile ? ResolvedPath : $"{Address}:{ResolvedPort}";

    /// <summary>The port used when <c>-p</c> is not given; by default the protocol's usual one (<see cref="Protocols.DefaultPort"/>).</summary>
    protected virtual int DefaultPortFor(string protocol) => Protocols.DefaultPort(protocol);

    /// <inheritdoc />
    public virtual string? Validate()
    {
        if (string.IsNullOrWhiteSpace(Address))
            return "the address (-a) must not be empty";
        if (ResolvedPort is < 0 or > 65535)
            return $"the port (-p) must be between 0 and 65535, not {ResolvedPort}";
        if (Path is not null && string.IsNullOrWhiteSpace(Path))
            return "the socket path (--path) must not be empty";
        if (UsesSocketFile && Port is not null)
            return "uds has a socket file (--path), not a port (-p)";
        if (!UsesSocketFile && Path is not null)
            return $"the socket path (--path) is for uds only; {Protocol} takes an address (-a) and a port (-p)";
        return null;
    }
}
