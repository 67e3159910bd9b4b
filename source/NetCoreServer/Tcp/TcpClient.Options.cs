namespace NetCoreServer;

public partial class TcpClient
{
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
}
