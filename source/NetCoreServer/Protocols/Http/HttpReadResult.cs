namespace NetCoreServer.Protocols.Http;

/// <summary>What a call to an HTTP reader's <c>Read</c> found.</summary>
internal enum HttpReadResult
{
    /// <summary>Nothing more can be done with the data handed in: call again with more (the unconsumed bytes first).</summary>
    NeedMoreData,

    /// <summary>The head (start line and header fields) is parsed and consumed; the body, if any, follows on the next calls.</summary>
    HeaderReady,

    /// <summary>The whole message is in; the next call starts the next message.</summary>
    MessageReady,

    /// <summary>The input is not acceptable HTTP (or passed a limit); the reader stays in error, see its <c>ErrorStatus</c>.</summary>
    Error,
}
