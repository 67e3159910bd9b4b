using System;
using System.Security.Authentication;

namespace NetCoreServer.Diagnostics;

/// <summary>
/// Tag values made once, so a measurement boxes nothing: reasons as snake_case strings, HTTP methods cut to the known
/// set (an unknown one is "_OTHER", as OpenTelemetry's semantic conventions ask, to bound the series), status codes boxed once.
/// </summary>
internal static class MetricTags
{
    private static readonly string[] s_disconnect =
        ["none", "local", "peer_closed", "error", "server_stopped", "handler_exception", "timeout", "handshake_failed", "protocol_error", "slow_consumer"];

    private static readonly string[] s_refusal = ["unknown", "server_full", "address_full", "descriptor_reserve", "refused"];

    private static readonly string[] s_methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"];

    // Boxed on first use, then shared: status codes 100-599.
    private static readonly object?[] s_status = new object?[600];

    public static string Of(DisconnectReason reason) => (uint)reason < (uint)s_disconnect.Length ? s_disconnect[(int)reason] : "other";

    public static string Of(RefusalReason reason) => (uint)reason < (uint)s_refusal.Length ? s_refusal[(int)reason] : "unknown";

    public static string Method(string method)
    {
        foreach (var known in s_methods)
        {
            if (string.Equals(known, method, StringComparison.Ordinal))
                return known;
        }
        return "_OTHER";
    }

    public static object Status(int status)
    {
        if ((uint)status >= (uint)s_status.Length)
            return status;
        return s_status[status] ??= status;
    }

    /// <summary>The version as OpenTelemetry's <c>tls.protocol.version</c> spells it ("1.2", "1.3").</summary>
    public static string TlsVersion(SslProtocols protocol) => protocol switch
    {
        SslProtocols.Tls13 => "1.3",
        SslProtocols.Tls12 => "1.2",
#pragma warning disable SYSLIB0039 // Named only to report what a peer negotiated.
        SslProtocols.Tls11 => "1.1",
        SslProtocols.Tls => "1.0",
#pragma warning restore SYSLIB0039
        _ => "unknown",
    };
}
