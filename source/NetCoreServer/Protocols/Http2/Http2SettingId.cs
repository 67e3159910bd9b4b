namespace NetCoreServer.Protocols.Http2;

/// <summary>The SETTINGS parameters this implementation knows (RFC 9113 §6.5.2, RFC 8441, RFC 9218); others are ignored.</summary>
internal enum Http2SettingId : ushort
{
    /// <summary>The largest HPACK dynamic table the sender's decoder allows (initially 4096).</summary>
    HeaderTableSize = 0x1,

    /// <summary>Whether server push is allowed: 0 or 1 (initially 1).</summary>
    EnablePush = 0x2,

    /// <summary>The most streams the sender lets the receiver open (initially unlimited).</summary>
    MaxConcurrentStreams = 0x3,

    /// <summary>Every stream's initial flow-control window: at most 2^31-1 (initially 65,535).</summary>
    InitialWindowSize = 0x4,

    /// <summary>The largest frame payload the sender accepts: 2^14 to 2^24-1 (initially 16,384).</summary>
    MaxFrameSize = 0x5,

    /// <summary>The largest field section the sender accepts, advisory (initially unlimited).</summary>
    MaxHeaderListSize = 0x6,

    /// <summary>Extended CONNECT (RFC 8441): 0 or 1.</summary>
    EnableConnectProtocol = 0x8,

    /// <summary>RFC 9218: the sender ignores RFC 7540 priorities: 0 or 1.</summary>
    NoRfc7540Priorities = 0x9,
}
