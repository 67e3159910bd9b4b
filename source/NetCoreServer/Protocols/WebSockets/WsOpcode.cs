namespace NetCoreServer.Protocols.WebSockets;

/// <summary>The frame opcodes of RFC 6455 §5.2; the others (3–7, 0xB–0xF) are reserved and fail the connection.</summary>
internal enum WsOpcode : byte
{
    /// <summary>A further fragment of the message under way.</summary>
    Continuation = 0x0,

    /// <summary>The first frame of a text message (UTF-8).</summary>
    Text = 0x1,

    /// <summary>The first frame of a binary message.</summary>
    Binary = 0x2,

    /// <summary>Close (control): an optional status code and UTF-8 reason.</summary>
    Close = 0x8,

    /// <summary>Ping (control): answered with a pong carrying the same payload.</summary>
    Ping = 0x9,

    /// <summary>Pong (control): an answer to a ping, or unsolicited as a heartbeat.</summary>
    Pong = 0xA,
}
