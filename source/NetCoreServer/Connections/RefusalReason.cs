namespace NetCoreServer;

/// <summary>Why a server closed an accepted connection at once instead of making a session of it (see <c>OnRefused</c>).</summary>
public enum RefusalReason
{
    /// <summary>The server already had <c>OptionMaxSessions</c> sessions.</summary>
    ServerFull = 1,

    /// <summary>The remote address already had <c>OptionMaxSessionsPerAddress</c> sessions.</summary>
    AddressFull = 2,

    /// <summary>Accepting it would have left fewer free descriptors than <c>OptionDescriptorReserve</c>.</summary>
    DescriptorReserve = 3,

    /// <summary>The server's <c>OnAccepting</c> returned false.</summary>
    Refused = 4,
}
