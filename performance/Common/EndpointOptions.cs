using CommandLine;

namespace NetCoreServer.Performance.Common;

/// <summary>Options every benchmark program has: where the server is and which protocol it speaks.</summary>
public class EndpointOptions : IValidatedOptions
{
    /// <summary>Server address (<c>-a</c>); default 127.0.0.1.</summary>
    [Option('a', "address", Default = "127.0.0.1", HelpText = "Server address.")]
    public string Address { get; set; } = "127.0.0.1";

    /// <summary>Server port (<c>-p</c>); when not given, the protocol's usual port (1111 for tcp).</summary>
    [Option('p', "port", HelpText = "Server port (default: 1111 for tcp, 2222 ssl, 3333 udp, 8080 http/ws, 8443 https/wss).")]
    public int? Port { get; set; }

    /// <summary>Protocol (<c>--protocol</c>); default tcp.</summary>
    [Option("protocol", Default = "tcp", HelpText = "Protocol: tcp or ssl, as the program implements them (uds, udp, ws, wss, http, https are planned).")]
    public string Protocol { get; set; } = "tcp";

    /// <summary>The port to use: the one given, or the protocol's default.</summary>
    public int ResolvedPort => Port ?? Protocols.DefaultPort(Protocol);

    /// <inheritdoc />
    public virtual string? Validate()
    {
        if (string.IsNullOrWhiteSpace(Address))
            return "the address (-a) must not be empty";
        if (ResolvedPort is < 0 or > 65535)
            return $"the port (-p) must be between 0 and 65535, not {ResolvedPort}";
        return null;
    }
}
