using System;

namespace NetCoreServer.Hosting;

/// <summary>
/// One server's settings, bound from a configuration section (appsettings.json, environment variables such as
/// <c>Chat__Port=9000</c>, user secrets). Unset values keep the library's defaults.
/// </summary>
public sealed class SessionServerOptions
{
    /// <summary>Address to listen on (default 127.0.0.1; 0.0.0.0 or :: for every interface).</summary>
    public string Address { get; set; } = "127.0.0.1";

    /// <summary>Port to listen on; 0 picks a free one (read it back from the server's <c>Endpoint</c>).</summary>
    public int Port { get; set; }

    /// <summary>A Unix socket file to listen on instead of <see cref="Address"/> and <see cref="Port"/>, for a factory that makes a Unix-socket server.</summary>
    public string? UnixSocketPath { get; set; }

    /// <summary>Most sessions at once (<c>OptionMaxSessions</c>); null keeps the default (no count).</summary>
    public int? MaxSessions { get; set; }

    /// <summary>Most sessions per remote address (<c>OptionMaxSessionsPerAddress</c>); null keeps the default (no cap).</summary>
    public int? MaxSessionsPerAddress { get; set; }

    /// <summary>Idle timeout of new sessions (<c>OptionIdleTimeout</c>), e.g. "00:05:00"; null keeps the default (none).</summary>
    public TimeSpan? IdleTimeout { get; set; }

    /// <summary>Initial receive buffer size of new sessions (<c>OptionReceiveBufferSize</c>; on a UDP server the kernel's SO_RCVBUF); null keeps the default.</summary>
    public int? ReceiveBufferSize { get; set; }

    /// <summary>Send chunk size of new sessions (<c>OptionSendBufferSize</c>; on a UDP server the kernel's SO_SNDBUF); null keeps the default.</summary>
    public int? SendBufferSize { get; set; }

    /// <summary>Disable Nagle's algorithm on accepted sockets (<c>OptionNoDelay</c>); null keeps the default (false).</summary>
    public bool? NoDelay { get; set; }

    /// <summary>Serve sessions from this many epoll event loops (<c>OptionEventLoops</c>, Linux); null keeps the default (0).</summary>
    public int? EventLoops { get; set; }

    /// <summary>A PKCS#12 (.pfx) certificate file for a TLS server's factory to load; null for none.</summary>
    public string? CertificatePath { get; set; }

    /// <summary>The certificate's password: keep it out of appsettings.json (an environment variable or user secrets).</summary>
    public string? CertificatePassword { get; set; }
}
