namespace NetCoreServer.Protocols.Http2;

/// <summary>How <see cref="HpackEncoder"/> may store a field in the dynamic table.</summary>
internal enum HpackIndexing
{
    /// <summary>
    /// The encoder chooses: fields known to repeat are indexed, fields whose values change per message (content-length,
    /// etag, :path...) are not, and credentials (authorization, cookie, set-cookie) are sent never-indexed.
    /// </summary>
    Auto,

    /// <summary>Stored in the dynamic table whenever it fits (§6.2.1), whatever the name.</summary>
    Store,

    /// <summary>Sent as a literal without indexing (§6.2.2): the field is not stored.</summary>
    None,

    /// <summary>
    /// Sent never-indexed (§6.2.3): not stored here or by any intermediary, so that a secret cannot be probed by
    /// guessing what compresses well (the CRIME family of attacks, §7.1).
    /// </summary>
    Never,
}
