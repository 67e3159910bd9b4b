using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Threading;
using System.Threading.Channels;

namespace NetCoreServer.Protocols.Framing;

/// <summary>
/// The messages an <c>await foreach</c> over <c>ReceiveMessagesAsync</c> has not taken yet: at most a capacity of
/// them, copied. When it is full the receive loop holds (reads nothing more from the socket) until the reader makes
/// room, so a slow reader slows the peer down instead of growing memory.
/// </summary>
/// <remarks>
/// One writer (the receive loop) and one reader (the enumeration). A hold is taken only inside the protocol's receive
/// call and ended by whichever side sees room first (<see cref="Resume"/> is idempotent). Taking and ending a hold are
/// each one step under the inbox's gate, so <see cref="Holding"/> and the loop's hold always agree. Lock order: the
/// gate, then the session lock.
/// </remarks>
internal sealed class MessageInbox(IProtocolConnection connection, int capacity)
{
    private readonly Channel<byte[]> _channel = Channel.CreateBounded<byte[]>(new BoundedChannelOptions(capacity + 1)
    {
        SingleReader = true,
        SingleWriter = true,
        FullMode = BoundedChannelFullMode.Wait,
    });

    // 1 while the receive loop holds for room here.
    private int _holding;
    // Makes each hold and release one step with the loop's: a release delayed after its exchange once ended a later hold.
    private readonly Lock _gate = new();

    /// <summary>On the receive loop: true when the message was taken; false when full, and then the loop holds.</summary>
    public bool TryAdd(ReadOnlySpan<byte> message)
    {
        if (_channel.Reader.Count < capacity && _channel.Writer.TryWrite(message.ToArray()))
            return true;
        HoldForRoom();
        return false;
    }

    /// <summary>
    /// On the receive loop, for a message its decoder has consumed already (WebSocket): always taken; false when the
    /// inbox is now full, and then the loop holds (the decoder stops after this message).
    /// </summary>
    public bool Add(ReadOnlySpan<byte> message)
    {
        // Room is certain: the loop holds as soon as the inbox is full.
        _channel.Writer.TryWrite(message.ToArray());
        if (_channel.Reader.Count < capacity)
            return true;
        HoldForRoom();
        return false;
    }

    /// <summary>Holds the receive loop until the reader makes room (inside the protocol's receive call).</summary>
    private void HoldForRoom()
    {
        lock (_gate)
        {
            Volatile.Write(ref _holding, 1);
            connection.HoldForInbox();
            // The reader may have made room before it could see the hold.
            if (_channel.Reader.Count < capacity)
                Resume();
        }
    }

    /// <summary>True while the receive loop holds for room here: the protocol consumes nothing until then.</summary>
    public bool Holding => Volatile.Read(ref _holding) == 1;

    /// <summary>Ends the receive loop's hold, if it holds.</summary>
    public void Resume()
    {
        if (Volatile.Read(ref _holding) == 0)
            return;
        lock (_gate)
        {
            if (Interlocked.Exchange(ref _holding, 0) == 1)
                connection.ReleaseForInbox();
        }
    }

    /// <summary>The connection ended: the enumeration finishes once it has taken what is here.</summary>
    public void Complete() => _channel.Writer.TryComplete();

    /// <summary>The messages, as they arrive, until <see cref="Complete"/> or cancellation.</summary>
    public async IAsyncEnumerable<byte[]> ReadAllAsync([EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var reader = _channel.Reader;
        while (await reader.WaitToReadAsync(cancellationToken).ConfigureAwait(false))
        {
            while (reader.TryRead(out var message))
            {
                Resume();
                yield return message;
            }
        }
    }
}
