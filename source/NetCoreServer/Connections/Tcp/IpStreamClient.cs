using System.Net.Sockets;
using NetCoreServer.Connections;
using NetCoreServer.Transports;

namespace NetCoreServer;

/// <summary>
/// What <see cref="TcpClient"/> and <see cref="SslClient"/> share and a Unix-socket client has not: an IP address or
/// host name with a port, and the TCP socket options. Neither of them is the other, as in NetCoreServer, so a
/// <c>switch</c> over both tells them apart; use this type to hold either.
/// </summary>
public abstract class IpStreamClient : StreamClient
{
    /// <summary>Creates a client for an IP or host-name endpoint.</summary>
    /// <param name="target">Server endpoint, address and port as given by the user.</param>
    private protected IpStreamClient(EndpointSpec target)
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

    private protected override TcpOptions? TcpOptions
        => new TcpOptions(OptionKeepAlive, OptionTcpKeepAliveTime, OptionTcpKeepAliveInterval, OptionTcpKeepAliveRetryCount, OptionNoDelay);
}
