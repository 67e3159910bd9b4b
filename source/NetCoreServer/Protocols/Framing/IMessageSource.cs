using System.Threading;

namespace NetCoreServer.Protocols.Framing;

/// <summary>A protocol whose whole messages a client can enumerate (<c>ReceiveMessagesAsync</c>): framing, WebSocket.</summary>
internal interface IMessageSource
{
    /// <summary>Starts an enumeration over <paramref name="connection"/>'s messages; one at a time.</summary>
    MessageInbox OpenInbox(IProtocolConnection connection, int capacity);

    /// <summary>The enumeration ended (finished, cancelled or abandoned): messages go to the hooks alone again.</summary>
    void CloseInbox(MessageInbox inbox);

    /// <summary>The connection ended: a running enumeration finishes.</summary>
    void Ended();
}

/// <summary>A protocol's place for its running enumeration (a field of the protocol; never copied).</summary>
internal struct InboxSlot
{
    private MessageInbox? _inbox;

    /// <summary>The running enumeration's inbox, or null.</summary>
    public MessageInbox? Current => Volatile.Read(ref _inbox);

    public MessageInbox Open(IProtocolConnection connection, int capacity)
    {
        var inbox = new MessageInbox(connection, capacity);
        if (Interlocked.CompareExchange(ref _inbox, inbox, null) != null)
            throw new System.InvalidOperationException("messages are already being enumerated on this connection");
        return inbox;
    }

    public void Close(MessageInbox inbox)
    {
        if (Interlocked.CompareExchange(ref _inbox, null, inbox) == inbox)
            inbox.Resume();
    }

    public void Ended() => Volatile.Read(ref _inbox)?.Complete();
}
