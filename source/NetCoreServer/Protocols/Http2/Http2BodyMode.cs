namespace NetCoreServer.Protocols.Http2;

/// <summary>How a request body reaches the hooks, as the header hook chose (RFC 9113 leaves it to the server).</summary>
internal enum Http2BodyMode
{
    /// <summary>The header hook has not returned yet: the body is kept, and the stream's credit held.</summary>
    Undecided,

    /// <summary>Kept in the request for OnReceivedRequest, up to MaxBodySize; credit given back as it is copied.</summary>
    Whole,

    /// <summary>Handed to OnReceivedRequestBody in pieces (StreamRequestBody); credit given back as they are taken.</summary>
    Streamed,
}
