using System.Threading;

namespace NetCoreServer.Engine;

/// <summary>
/// The two limits every engine shares, stream and datagram alike, with the same meaning: how large a receive may
/// grow and how much accepted data may wait to be sent. The owner's Option properties write through, so a change
/// applies to the running engine at once. The defaults differ per engine and are set by the subclass.
/// </summary>
internal abstract class ConnectionLimits
{
    private int _receiveBufferLimit;
    private long _sendBufferLimit;

    private protected ConnectionLimits(long defaultSendBufferLimit) => _sendBufferLimit = defaultSendBufferLimit;

    /// <summary>Largest receive buffer in bytes; 0 selects the engine's default.</summary>
    public int ReceiveBufferLimit
    {
        get => Volatile.Read(ref _receiveBufferLimit);
        set => Volatile.Write(ref _receiveBufferLimit, value);
    }

    /// <summary>Most bytes accepted and not yet handed to the socket; 0 means unlimited.</summary>
    public long SendBufferLimit
    {
        get => Volatile.Read(ref _sendBufferLimit);
        set => Volatile.Write(ref _sendBufferLimit, value);
    }
}
