using System;
using System.Threading;

namespace NetCoreServer.Protocols.Framing;

/// <summary>
/// Framing in a connection's protocol slot: cuts whole messages out of what arrives and hands each to
/// <c>OnReceivedMessage</c> as a span over the receive buffer (no copy); a partial message stays with the engine until
/// the rest arrives. One per connection, on the receive loop only (calls never overlap).
/// </summary>
internal sealed class FramedProtocol(IProtocolConnection connection, MessageFraming framing) : IStreamProtocol, IMessageSource
{
    // How far a delimiter search got into the message at the front (so a long message is not searched again per read).
    private int _scanned;
    // The running ReceiveMessagesAsync enumeration, if any.
    private InboxSlot _inbox;

    public MessageFraming Framing { get; } = framing;

    public int Received(ReadOnlySpan<byte> data)
    {
        var consumed = 0;
        while (consumed < data.Length)
        {
            if (!connection.IsConnected)
                return data.Length;
            var rest = data[consumed..];
            var scan = Framing.Next(rest, ref _scanned, out var start, out var length, out var used);
            if (scan == FrameScan.NeedMore)
                return consumed;
            if (scan != FrameScan.Message)
            {
                _scanned = 0;
                connection.RefuseMessage();
                return data.Length;
            }
            var message = rest.Slice(start, length);
            // An enumeration that is full holds the loop: this message is handed again once it has room.
            if (_inbox.Current is { } inbox && !inbox.TryAdd(message))
                return consumed;
            consumed += used;
            connection.RaiseMessage(message);
        }
        return consumed;
    }

    /// <summary>A new connection starts (a client reconnecting): nothing of the last one is searched.</summary>
    public void Restart() => _scanned = 0;

    MessageInbox IMessageSource.OpenInbox(IProtocolConnection owner, int capacity) => _inbox.Open(owner, capacity);

    void IMessageSource.CloseInbox(MessageInbox inbox) => _inbox.Close(inbox);

    void IMessageSource.Ended() => _inbox.Ended();
}
