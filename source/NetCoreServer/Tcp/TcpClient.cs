using System.Net;
using System.Net.Sockets;
using NetCoreServer.Core;

namespace NetCoreServer;

/// <summary>
/// TCP client over IPv4 or IPv6, by address or host name. Subclass it and override the hooks; connecting lives in
/// <see cref="StreamClient"/>, sending and receiving in <see cref="StreamConnection"/>.
/// </summary>
public class TcpClient : StreamClient
{
    /// <summary>Creates a client for an IP address and port.</summary>
    /// <param name="address">Server address.</param>
    /// <param name="port">Server port.</param>
    public TcpClient(IPAddress address, int port)
        : base(EndpointSpec.Of(address, port))
    {
    }

    /// <summary>Creates a client for an IP address literal or a host name, and a port.</summary>
    /// <param name="address">Server address or host name.</param>
    /// <param name="port">Server port.</param>
    public TcpClient(string address, int port)
        : base(EndpointSpec.Of(address, port))
    {
    }

    /// <summary>Creates a client for a host name endpoint; every address the name resolves to is tried.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public TcpClient(DnsEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
    }

    /// <summary>Creates a client for an IP endpoint.</summary>
    /// <param name="endpoint">Server endpoint.</param>
    public TcpClient(IPEndPoint endpoint)
        : base(EndpointSpec.Of(endpoint))
    {
    }

    /// <summary>Creates a client for any endpoint; used by clients layered on TCP (TLS).</summary>
    /// <param name="target">Server endpoint, address and port as given by the user.</param>
    private protected TcpClient(EndpointSpec target)
        : base(target)
    {
    }

    /// <summary>When connecting over IPv6, allow IPv4-mapped addresses (default false).</summary>
    public bool OptionDualMode { get; set; }

    /// <summary>Enable SO_KEEPALIVE (default false).</summary>
    public bool OptionKeepAlive { get; set; }

    /// <summary>Seconds of idleness before the first keep-alive probe; -1 (default) keeps the system value.</summary>
    public int OptionTcpKeepAliveTime { get; set; } = -1;

    /// <summary>Seconds between keep-alive probes; -1 (default) keeps the system value.</summary>
    public int OptionTcpKeepAliveInterval { get; set; } = -1;

    /// <summary>Unanswered keep-alive probes before the connection is dropped; -1 (default) keeps the system value.</summary>
    public int OptionTcpKeepAliveRetryCount { get; set; } = -1;

    /// <summary>Disable Nagle's algorithm (default false).</summary>
    public bool OptionNoDelay { get; set; }

    private protected override void PrepareSocket(Socket socket)
    {
        if (socket.AddressFamily == AddressFamily.InterNetworkV6)
            socket.DualMode = OptionDualMode;
    }

    private protected override void ApplyOptions(Socket socket)
        => Tcp.TcpSocketOptions.Apply(socket, OptionKeepAlive, OptionTcpKeepAliveTime, OptionTcpKeepAliveInterval, OptionTcpKeepAliveRetryCount, OptionNoDelay);
}
