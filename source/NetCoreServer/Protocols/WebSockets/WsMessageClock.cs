using System;
using System.Threading;
using NetCoreServer.Engine;

namespace NetCoreServer.Protocols.WebSockets;

/// <summary>
/// Times the data message under way on one connection (<see cref="WsOptions.MessageTimeout"/>): a message still
/// unfinished when a read has been decoded starts the clock, once per message, and runs out
/// <see cref="WsOptions.MessageTimeout"/> after that read; a message that arrives whole within one read never touches
/// it. Thread use: <see cref="Watch"/> on the receive thread (calls never overlap), the expiry on the wheel's pool
/// thread; the two share only <c>_since</c>, a volatile field.
/// </summary>
internal sealed class WsMessageClock
{
    private const long NoMessage = long.MinValue;

    private readonly TimeSpan _timeout;
    private readonly CallbackTimer _timer;
    private readonly Action _expired;

    // The message under way: its number (the decoder's count, receive thread only) and since when (the wheel's Now), or NoMessage.
    private long _number;
    private long _since = NoMessage;

    /// <param name="wheel">The wheel of the connection's timeouts.</param>
    /// <param name="timeout">The longest a message may take; positive.</param>
    /// <param name="expired">Called once the message under way has taken longer (on a pool thread).</param>
    public WsMessageClock(TimerWheel wheel, TimeSpan timeout, Action expired)
    {
        _timeout = timeout;
        _expired = expired;
        _timer = new CallbackTimer(wheel, static s => ((WsMessageClock)s).OnTimer(), this);
    }

    /// <summary>After a read was decoded: starts the clock for a message left under way, stops it when none is.</summary>
    public void Watch(WsFrameDecoder decoder)
    {
        if (!decoder.InMessage)
        {
            if (_since != NoMessage)
                Volatile.Write(ref _since, NoMessage);
            return;
        }
        var number = decoder.MessagesStarted;
        if (number == _number && _since != NoMessage)
            return;
        _number = number;
        Volatile.Write(ref _since, _timer.Wheel.Now);
        // Left armed when a message ends: re-arming for the next one moves the entry later without the wheel's lock.
        _timer.Schedule(_timeout);
    }

    /// <summary>Stops the clock for good (the connection has ended).</summary>
    public void Close() => _timer.Close();

    private void OnTimer()
    {
        var since = Volatile.Read(ref _since);
        if (since == NoMessage)
            return;
        var left = _timeout - TimeSpan.FromMilliseconds(_timer.Wheel.Now - since);
        if (left > TimeSpan.Zero)
        {
            // A later message than the one the entry was armed for: its own deadline.
            _timer.Schedule(left);
            return;
        }
        _expired();
    }
}
