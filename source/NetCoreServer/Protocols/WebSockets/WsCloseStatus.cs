namespace NetCoreServer.Protocols.WebSockets;

/// <summary>Close status codes (RFC 6455 §7.4) and which of them may appear on the wire.</summary>
internal static class WsCloseStatus
{
    public const int Normal = 1000;
    public const int GoingAway = 1001;
    public const int ProtocolError = 1002;
    public const int UnsupportedData = 1003;

    /// <summary>Reported when a close frame carried no status; never sent.</summary>
    public const int NoStatus = 1005;

    /// <summary>Reported when the connection ended without a close frame; never sent.</summary>
    public const int Abnormal = 1006;

    public const int InvalidPayload = 1007;
    public const int PolicyViolation = 1008;
    public const int MessageTooBig = 1009;
    public const int MandatoryExtension = 1010;
    public const int InternalError = 1011;

    /// <summary>Reported when the TLS handshake failed; never sent.</summary>
    public const int TlsHandshake = 1015;

    /// <summary>
    /// True for a status that may travel in a close frame: 1000–1003 and 1007–1011 (RFC 6455 §7.4.1), 1012–1014
    /// (registered with IANA since: service restart, try again later, bad gateway; real servers send them), and
    /// 3000–4999 (libraries, frameworks and applications). 1004, 1005, 1006, 1015 and everything else are not, and a
    /// close frame carrying one fails the connection with 1002.
    /// </summary>
    public static bool IsValidOnWire(int status) => status switch
    {
        >= 1000 and <= 1003 => true,
        >= 1007 and <= 1014 => true,
        >= 3000 and <= 4999 => true,
        _ => false,
    };
}
