using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Udp;

/// <summary>
/// When the datagram receive loop may receive, as in NetCoreServer where at most one receive is outstanding. Parked:
/// nothing wanted, the loop waits in <see cref="WaitAsync"/> for <see cref="Request"/>. Wanted: a datagram is wanted (the
/// receive is pending); more requests change nothing. Delivering: a datagram is in OnReceived. Requested: a request came
/// during delivery, so the next datagram is wanted as soon as OnReceived returns. <see cref="Request"/> and
/// <see cref="Close"/> may come from any thread; the other calls come from the one loop.
/// </summary>
internal sealed class ReceiveGate
{
    private const int Parked = 0;
    private const int Wanted = 1;
    private const int Delivering = 2;
    private const int Requested = 3;
    private const int Stopped = 4;

    private readonly LoopSignal _signal = new();
    private int _state = Parked;
    private volatile bool _closed;

    /// <summary>True after <see cref="Close"/>: no more receiving.</summary>
    public bool IsClosed => _closed;

    /// <summary>The loop waits here while parked; it continues inline on the thread that wakes it.</summary>
    public ValueTask WaitAsync() => _signal.WaitAsync();

    /// <summary>
    /// NetCoreServer's ReceiveAsync. Never recurses: during delivery it only records the request, which the loop picks
    /// up when the hook returns; a parked loop is woken and continues inline on this thread.
    /// </summary>
    public void Request()
    {
        while (!_closed)
        {
            switch (Volatile.Read(ref _state))
            {
                case Parked:
                    if (Interlocked.CompareExchange(ref _state, Wanted, Parked) == Parked)
                    {
                        _signal.Set();
                        return;
                    }
                    break;
                case Delivering:
                    if (Interlocked.CompareExchange(ref _state, Requested, Delivering) == Delivering)
                        return;
                    break;
                default:
                    return;
            }
        }
    }

    /// <summary>The loop hands a datagram to OnReceived.</summary>
    // Only the loop leaves Wanted, so a plain exchange is enough.
    public void Deliver() => Interlocked.Exchange(ref _state, Delivering);

    /// <summary>After a delivery in continuous mode: the next datagram is wanted.</summary>
    public void Continue() => Interlocked.Exchange(ref _state, Wanted);

    /// <summary>
    /// After a delivery: true when a request came during it (receive again at once); otherwise the loop parks and
    /// must await <see cref="WaitAsync"/>. A close that lands after the loop's last closed check but before Parked is
    /// published finds nothing to wake, so the gate looks at closed again once Parked is published; whichever side
    /// comes second sees the other and wakes the loop, and the CompareExchange from Parked makes that one wake-up.
    /// </summary>
    public bool ParkUnlessRequested()
    {
        // Reset before publishing Parked: a waker may Set as soon as it sees Parked.
        _signal.Reset();
        while (true)
        {
            if (Interlocked.CompareExchange(ref _state, Wanted, Requested) == Requested)
                return true;
            if (Interlocked.CompareExchange(ref _state, Parked, Delivering) == Delivering)
                break;
        }
        // The exchange above is a full fence, as is Close's exchange after it sets closed: at least one of the two
        // sees the other's write.
        if (_closed)
            Wake();
        return false;
    }

    /// <summary>The loop has ended; requests change nothing from now on.</summary>
    public void Stop() => Volatile.Write(ref _state, Stopped);

    /// <summary>No more receiving: a parked loop is woken (to see the engine closed and end); one not parked yet wakes itself when it parks.</summary>
    public void Close()
    {
        _closed = true;
        Wake();
    }

    private void Wake()
    {
        if (Interlocked.CompareExchange(ref _state, Wanted, Parked) == Parked)
            _signal.Set();
    }
}
