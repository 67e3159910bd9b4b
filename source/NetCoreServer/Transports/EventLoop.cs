using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics.CodeAnalysis;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetCoreServer.Transports;

/// <summary>
/// One Linux epoll set waiting for the sockets of <see cref="EpollTransport"/>s, served by one thread at a time, which
/// runs their completions (and so the engine's loops and the hooks). The loops are process-wide and created on first
/// use: a server or client asking for N loops spreads its connections over the first N, round robin. A loop that serves
/// nothing waits in <c>epoll_wait</c> and uses no CPU.
/// </summary>
/// <remarks>
/// Each socket is registered once, edge-triggered for reading and writing; the transport keeps what the edges said
/// (see <see cref="EpollTransport"/>). An event names its transport by a token, the slot in this loop's table and a
/// number never used before, so an event that was already returned for a transport closed since (whose slot may be
/// taken again) reaches nobody. Other threads hand a transport's read to the loop through <see cref="Post"/>, which wakes
/// it through an eventfd in the same set. Loops live as long as the process (two descriptors each): see
/// docs/design/event-loops.md for why none is closed.
/// The handoff: what a pass of the loop has still to do (the events <c>epoll_wait</c> returned, the posted and deferred
/// reads) lives in this object, not on a thread's stack, and every completion runs as one numbered turn. When a turn
/// runs too long (a hook that blocks; <see cref="LoopWatchdog"/>) or its hook is about to wait (a blocking call), the
/// loop is taken from that thread between two atomic steps and given to another of <see cref="LoopThreads"/>, which goes
/// on with the pass; the old thread finishes its turn outside the loop and leaves (see <see cref="Serve"/>).
/// </remarks>
internal sealed class EventLoop
{
    private const int MaxEvents = 256;

    // The eventfd's token: no slot is ever this large.
    private const ulong WakeToken = ulong.MaxValue;

    // The mask a turn gets for a posted or deferred read: epoll never returns an entry without an event bit.
    private const uint RunDeferredMask = 0;

    // An unexpected epoll_wait error is retried after this long, doubling up to a second.
    private const int FirstBackoffMs = 10;
    private const int MaxBackoffMs = 1000;

    // The turn word: the holding thread's managed id in the high half, the turn count in the low half (odd in a turn).
    private const long CounterMask = 0xFFFFFFFF;

    private static readonly object s_create = new();
    private static EventLoop[] s_loops = [];
    private static int s_next;
    private static long s_handoffs;

    // epoll_event is packed on x86 and x86-64 (12 bytes, the data at offset 4) and naturally aligned elsewhere (16, at 8).
    private static readonly bool s_packed = RuntimeInformation.ProcessArchitecture is Architecture.X64 or Architecture.X86;
    private static readonly int s_stride = s_packed ? 12 : 16;
    private static readonly int s_dataOffset = s_packed ? 4 : 8;

    [ThreadStatic]
    private static byte[]? t_event;

    private readonly int _epoll;
    private readonly Stack<int> _free = new();
    // Transports whose connection used up its turn (see EpollTransport.TryReceive): run again after the next look at
    // the epoll set, so one busy connection cannot keep the loop from the others. Concurrent: a thread that loses the
    // loop between its look and the enqueue still adds here (and then wakes the loop).
    private readonly ConcurrentQueue<EpollTransport> _deferred = new();
    // Transports whose read another thread handed over (see Post); the eventfd wakes the loop for them.
    private readonly ConcurrentQueue<EpollTransport> _posted = new();
    private readonly int _wake;
    private int _wakePending;
    private EpollTransport?[] _slots = new EpollTransport?[64];
    private int _used;
    private uint _registrations;

    // The pass under way, read and written by the thread holding the loop (handed over with it): the entries epoll_wait
    // returned (pinned once: the array stays fixed while epoll_wait blocks on it), the next one, whether posted reads
    // are being drained, and how many deferred ones are left (-1 until the events are done).
    private readonly byte[] _events = GC.AllocateArray<byte>(MaxEvents * s_stride, pinned: true);
    private int _count;
    private int _index;
    private bool _drainPosted;
    private int _deferredLeft = -1;
    private int _backoff;
    private LoopRest _rest;

    // See CounterMask. Written by the holder (a plain store to start a turn, a compare-exchange to end it) and by a
    // handoff (a compare-exchange of a turn in progress): the holder that ends its turn and a handoff cannot both win.
    private long _turn;
    // epoll_waits returned, for the watchdog (incremented with a full fence: see LoopWatchdog.Nudge).
    private long _passes;
    // The kernel id of the thread serving the loop, for the watchdog (see LoopWatchdog.IsRunnable).
    private int _holderTid;

    private EventLoop()
    {
        _epoll = EpollNative.epoll_create1(EpollNative.EPOLL_CLOEXEC);
        if (_epoll < 0)
            throw new SocketException(Marshal.GetLastPInvokeError());
        _wake = EpollNative.eventfd(0, EpollNative.EFD_NONBLOCK | EpollNative.EFD_CLOEXEC);
        var ev = new byte[16];
        var wakeEvents = Mask.In;
        var wakeToken = WakeToken;
        MemoryMarshal.Write(ev, in wakeEvents);
        MemoryMarshal.Write(ev.AsSpan(s_dataOffset), in wakeToken);
        if (_wake < 0 || EpollNative.epoll_ctl(_epoll, EpollNative.EPOLL_CTL_ADD, _wake, ev) != 0)
        {
            var error = Marshal.GetLastPInvokeError();
            if (_wake >= 0)
                EpollNative.close(_wake);
            EpollNative.close(_epoll);
            throw new SocketException(error);
        }
        LoopWatchdog.Start();
        LoopThreads.Serve(this);
    }

    /// <summary>The loops made so far (the watchdog's list).</summary>
    internal static EventLoop[] All => Volatile.Read(ref s_loops);

    /// <summary>Loops handed from one thread to another since the process started (the watchdog's and the blocking calls').</summary>
    internal static long Handoffs => Interlocked.Read(ref s_handoffs);

    /// <summary>
    /// The one step every blocking member takes before it waits (connect, receive, a send, close or disconnect that
    /// waits, a stop): on the thread holding an event loop, the loop goes to another thread now, without waiting for
    /// the watchdog, so the wait stalls only the caller and what it waits for (often work of this same loop) gets done.
    /// Elsewhere it does nothing. See docs/design/event-loops.md.
    /// </summary>
    public static void HandOffBeforeWaiting() => ThreadRole.HandOffLoop();

    /// <summary>True on the thread that holds this loop now.</summary>
    public bool IsCurrent => ThreadRole.IsLoopOf(this);

    /// <summary>Whether this system has epoll (Linux); elsewhere the option asking for event loops is ignored.</summary>
    public static bool IsSupported => OperatingSystem.IsLinux();

    /// <summary>The turn word now (see <see cref="CounterMask"/>).</summary>
    internal long Turn => Volatile.Read(ref _turn);

    /// <summary>How many times <c>epoll_wait</c> has returned.</summary>
    internal long Passes => Volatile.Read(ref _passes);

    /// <summary>The kernel id of the thread that last took the loop.</summary>
    internal int HolderTid => Volatile.Read(ref _holderTid);

    /// <summary>The managed id of the thread holding the loop now; 0 while it waits for one.</summary>
    internal int Holder => HolderOf(Turn);

    /// <summary>The holder named by a turn word.</summary>
    internal static int HolderOf(long turn) => (int)(turn >> 32);

    /// <summary>True for a turn word taken while a completion ran.</summary>
    internal static bool InTurn(long turn) => (turn & 1) != 0;

    // The next turn word: the count goes up by one, the holder stays.
    private static long Advance(long turn) => (turn & ~CounterMask) | ((turn + 1) & CounterMask);

    /// <summary>One of the first <paramref name="count"/> loops, round robin; the loops are made on first need.</summary>
    public static EventLoop Pick(int count)
    {
        var loops = Volatile.Read(ref s_loops);
        if (loops.Length < count)
        {
            lock (s_create)
            {
                loops = s_loops;
                // Published one by one: a loop that cannot be made (no epoll set) leaves the ones before it in use.
                while (loops.Length < count)
                {
                    var more = new EventLoop[loops.Length + 1];
                    Array.Copy(loops, more, loops.Length);
                    more[loops.Length] = new EventLoop();
                    Volatile.Write(ref s_loops, more);
                    loops = more;
                }
            }
        }
        return loops[(int)((uint)Interlocked.Increment(ref s_next) % (uint)count)];
    }

    /// <summary>Adds the transport's socket to this loop's set; from here on its events reach <see cref="EpollTransport.OnEvents"/>.</summary>
    public void Register(EpollTransport transport, int fd)
    {
        ulong token;
        lock (_free)
        {
            var slot = _free.Count > 0 ? _free.Pop() : _used++;
            if (slot == _slots.Length)
            {
                var more = new EpollTransport?[_slots.Length * 2];
                Array.Copy(_slots, more, _slots.Length);
                Volatile.Write(ref _slots, more);
            }
            _slots[slot] = transport;
            token = ((ulong)++_registrations << 32) | (uint)slot;
            transport.Token = token;
        }
        // The epoll_event to add, in a buffer of the registering thread's (accepts run on several threads).
        var ev = t_event ??= new byte[16];
        var events = Mask.In | Mask.Pri | Mask.Out | Mask.RdHup | EpollNative.EPOLLET;
        MemoryMarshal.Write(ev, in events);
        MemoryMarshal.Write(ev.AsSpan(s_dataOffset), in token);
        if (EpollNative.epoll_ctl(_epoll, EpollNative.EPOLL_CTL_ADD, fd, ev) != 0)
        {
            var error = Marshal.GetLastPInvokeError();
            Release(transport);
            throw new SocketException(error);
        }
    }

    /// <summary>Takes the socket out of the set (while its descriptor is still open) and frees the transport's slot.</summary>
    public void Unregister(EpollTransport transport, int fd)
    {
        if (fd >= 0)
            EpollNative.epoll_ctl(_epoll, EpollNative.EPOLL_CTL_DEL, fd, null);
        Release(transport);
    }

    private void Release(EpollTransport transport)
    {
        lock (_free)
        {
            var slot = (int)(uint)transport.Token;
            if (slot < _slots.Length && _slots[slot] == transport)
            {
                _slots[slot] = null;
                _free.Push(slot);
            }
        }
    }

    /// <summary>
    /// Runs the transport's <see cref="EpollTransport.RunDeferred"/> on the loop's thread soon; from any thread. One
    /// eventfd write wakes the loop for every post made before it drains them.
    /// </summary>
    public void Post(EpollTransport transport)
    {
        _posted.Enqueue(transport);
        Wake();
    }

    /// <summary>Runs the transport's <see cref="EpollTransport.RunDeferred"/> after the loop has looked at its set again; from its holder.</summary>
    public void Defer(EpollTransport transport)
    {
        _deferred.Enqueue(transport);
        // Handed on between the caller's look and the enqueue: the new holder may already wait in epoll_wait.
        if (!IsCurrent)
            Wake();
    }

    private void Wake()
    {
        if (Interlocked.Exchange(ref _wakePending, 1) == 0)
        {
            ulong one = 1;
            EpollNative.write(_wake, ref one, sizeof(ulong));
        }
    }

    /// <summary>
    /// Gives the loop, in the middle of <paramref name="turn"/>, to another thread, if that turn is still under way: the
    /// thread running it then leaves the loop when the turn ends. From the watchdog, or the holder itself before it waits.
    /// </summary>
    /// <returns>True when this call took the loop from its holder.</returns>
    internal bool TryHandOff(long turn)
    {
        if (!InTurn(turn) || Interlocked.CompareExchange(ref _turn, Advance(turn) & CounterMask, turn) != turn)
            return false;
        Interlocked.Increment(ref s_handoffs);
        LoopThreads.Serve(this);
        return true;
    }

    /// <summary>The thread given the loop (by <see cref="LoopThreads"/>) names itself its holder; see <see cref="ThreadRole"/>.</summary>
    internal void Seat(int thread) => Volatile.Write(ref _turn, ((long)thread << 32) | (Volatile.Read(ref _turn) & CounterMask));

    /// <summary>
    /// Serves the loop on the calling thread, from where the pass stands, until the loop is handed to another thread;
    /// returns once the turn this thread was in then has ended.
    /// </summary>
    internal void Serve()
    {
        Volatile.Write(ref _holderTid, EpollNative.gettid());
        ThreadRole.BecomeLoop(this);
        try
        {
            while (true)
            {
                if (!Next(out var transport, out var mask))
                    Poll();
                else if (!RunTurn(transport, mask))
                    return;
            }
        }
        finally
        {
            ThreadRole.LeaveLoop();
        }
    }

    /// <summary>Runs one completion as a turn; false when the loop was handed on meanwhile (this thread then leaves it).</summary>
    private bool RunTurn(EpollTransport transport, uint mask)
    {
        var turn = Advance(_turn);
        Volatile.Write(ref _turn, turn);
        try
        {
            if (mask == RunDeferredMask)
                transport.RunDeferred();
            else
                transport.OnEvents(mask);
        }
        catch (Exception exception)
        {
            // Nothing may end the loop that serves the others: the connection fails (its OnError) and closes.
            Faulted(transport, exception);
        }
        return Interlocked.CompareExchange(ref _turn, Advance(turn), turn) == turn;
    }

    /// <summary>The next completion of the pass (posted reads when the eventfd said so, then events, then deferred reads); false when the pass is done.</summary>
    private bool Next([NotNullWhen(true)] out EpollTransport? transport, out uint mask)
    {
        mask = RunDeferredMask;
        while (true)
        {
            if (_drainPosted)
            {
                if (_posted.TryDequeue(out transport))
                    return true;
                _drainPosted = false;
            }
            if (_index < _count)
            {
                var entry = _events.AsSpan(_index++ * s_stride, s_stride);
                var token = MemoryMarshal.Read<ulong>(entry.Slice(s_dataOffset));
                if (token == WakeToken)
                {
                    TakeWake();
                    continue;
                }
                var slots = Volatile.Read(ref _slots);
                var slot = (int)(uint)token;
                transport = slot < slots.Length ? slots[slot] : null;
                if (transport == null || transport.Token != token)
                    continue;
                mask = MemoryMarshal.Read<uint>(entry);
                return true;
            }
            // Those deferred before this point; a connection deferred again now waits for the next pass.
            if (_deferredLeft < 0)
                _deferredLeft = _deferred.Count;
            if (_deferredLeft > 0 && _deferred.TryDequeue(out transport))
            {
                _deferredLeft--;
                return true;
            }
            _deferredLeft = 0;
            transport = null;
            return false;
        }
    }

    private void TakeWake()
    {
        ulong count = 0;
        EpollNative.read(_wake, ref count, sizeof(ulong));
        // Cleared before the drain: a post that finds it clear writes again, so nothing posted waits unseen.
        Volatile.Write(ref _wakePending, 0);
        _drainPosted = true;
    }

    /// <summary>Waits in the set for the next pass, as <see cref="LoopRest"/> says (only looks, with deferred reads waiting).</summary>
    private void Poll()
    {
        var deferred = !_deferred.IsEmpty;
        var timeout = _rest.NextTimeout(deferred, out var yieldFirst);
        if (yieldFirst)
            Thread.Yield();
        var count = EpollNative.epoll_wait(_epoll, _events, MaxEvents, timeout);
        if (count < 0)
        {
            // EINTR (a signal) is the only error a valid set gives; anything else would spin, so it is reported once
            // per streak and retried, backing off to a second.
            var error = Marshal.GetLastPInvokeError();
            if (error == EpollNative.EINTR)
                return;
            if (_backoff == 0)
                LoopFaults.Report(new SocketException(error));
            _backoff = Math.Min(MaxBackoffMs, Math.Max(FirstBackoffMs, _backoff * 2));
            Thread.Sleep(_backoff);
            return;
        }
        _backoff = 0;
        _rest.Returned(timeout, count, deferred);
        _count = count;
        _index = 0;
        _deferredLeft = -1;
        Interlocked.Increment(ref _passes);
        LoopWatchdog.Nudge();
    }

    /// <summary>An exception from the library's own code (hooks have theirs caught before): reported, and the connection closed.</summary>
    private static void Faulted(EpollTransport transport, Exception exception)
    {
        LoopFaults.Report(exception);
        try
        {
            transport.Fault();
        }
        catch (Exception)
        {
            // Closing the socket failed as well: it is out of the set or already closed; the loop goes on.
        }
    }

    /// <summary>The readiness bits registered for and handed to <see cref="EpollTransport.OnEvents"/> (epoll's EPOLLIN, EPOLLPRI, ...).</summary>
    internal static class Mask
    {
        public const uint In = 0x001;
        public const uint Pri = 0x002;
        public const uint Out = 0x004;
        public const uint Err = 0x008;
        public const uint Hup = 0x010;
        public const uint RdHup = 0x2000;
    }
}
