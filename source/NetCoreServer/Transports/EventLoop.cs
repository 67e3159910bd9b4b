using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Threading;

namespace NetCoreServer.Transports;

/// <summary>
/// One thread waiting in its own Linux epoll set for the sockets of <see cref="EpollTransport"/>s, and running their
/// completions (and so the engine's loops and the hooks) on itself. The loops are process-wide and created on first
/// use: a server or client asking for N loops spreads its connections over the first N, round robin. A loop that
/// serves nothing waits in <c>epoll_wait</c> and uses no CPU.
/// </summary>
/// <remarks>
/// Each socket is registered once, edge-triggered for reading and writing; the transport keeps what the edges said
/// (see <see cref="EpollTransport"/>). An event names its transport by a token, the slot in this loop's table and a
/// number never used before, so an event that was already returned for a transport closed since (whose slot may be
/// taken again) reaches nobody. Other threads hand a transport's read to the loop through <see cref="Post"/>, which wakes
/// it through an eventfd in the same set. Loops live as long as the process (two descriptors and a parked thread each):
/// see docs/design/event-loops.md for why none is closed.
/// </remarks>
internal sealed class EventLoop
{
    private const int MaxEvents = 256;

    // The eventfd's token: no slot is ever this large.
    private const ulong WakeToken = ulong.MaxValue;

    // An unexpected epoll_wait error is retried after this long, doubling up to a second.
    private const int FirstBackoffMs = 10;
    private const int MaxBackoffMs = 1000;

    private static readonly object s_create = new();
    private static EventLoop[] s_loops = [];
    private static int s_next;

    // epoll_event is packed on x86 and x86-64 (12 bytes, the data at offset 4) and naturally aligned elsewhere (16, at 8).
    private static readonly bool s_packed = RuntimeInformation.ProcessArchitecture is Architecture.X64 or Architecture.X86;
    private static readonly int s_stride = s_packed ? 12 : 16;
    private static readonly int s_dataOffset = s_packed ? 4 : 8;

    [ThreadStatic]
    private static byte[]? t_event;

    private readonly int _epoll;
    private readonly Stack<int> _free = new();
    // Transports whose connection used up its turn (see EpollTransport.TryReceive): run again after the next look at
    // the epoll set, so one busy connection cannot keep the loop from the others. Touched by the loop's thread only.
    private readonly Queue<EpollTransport> _deferred = new();
    // Transports whose read another thread handed over (see Post); the eventfd wakes the loop for them.
    private readonly ConcurrentQueue<EpollTransport> _posted = new();
    private readonly int _wake;
    private int _wakePending;
    private EpollTransport?[] _slots = new EpollTransport?[64];
    private int _used;
    private uint _registrations;

    private EventLoop(int index)
    {
        _epoll = Native.epoll_create1(Native.EPOLL_CLOEXEC);
        if (_epoll < 0)
            throw new SocketException(Marshal.GetLastPInvokeError());
        _wake = Native.eventfd(0, Native.EFD_NONBLOCK | Native.EFD_CLOEXEC);
        var ev = new byte[16];
        var wakeEvents = Mask.In;
        var wakeToken = WakeToken;
        MemoryMarshal.Write(ev, in wakeEvents);
        MemoryMarshal.Write(ev.AsSpan(s_dataOffset), in wakeToken);
        if (_wake < 0 || Native.epoll_ctl(_epoll, Native.EPOLL_CTL_ADD, _wake, ev) != 0)
        {
            var error = Marshal.GetLastPInvokeError();
            if (_wake >= 0)
                Native.close(_wake);
            Native.close(_epoll);
            throw new SocketException(error);
        }
        var thread = new Thread(Run) { IsBackground = true, Name = $"NetCoreServer event loop {index}" };
        thread.UnsafeStart();
    }

    /// <summary>
    /// True on an event loop's thread: a call that blocks there stalls every connection of the loop, and one that waits
    /// for a socket of the same loop waits forever (the engine queues a blocking send instead; see SendBlocking).
    /// </summary>
    public static bool IsLoopThread => ThreadRole.IsLoop;

    /// <summary>
    /// The one guard of the blocking members that cannot queue and return (connect, receive): on an event loop's thread
    /// it throws, naming the asynchronous member to use, instead of letting the call wait there. Waiting stalls every
    /// connection of the loop and may wait for this loop or another one that waits on it, which is a deadlock.
    /// </summary>
    /// <param name="call">The blocking member, as the user wrote it (e.g. "Connect").</param>
    /// <param name="asyncMember">What to call instead (e.g. "ConnectAsync").</param>
    /// <exception cref="InvalidOperationException">Called on an event loop's thread.</exception>
    public static void ThrowIfLoopThread(string call, string asyncMember)
    {
        if (IsLoopThread)
            throw new InvalidOperationException(
                $"{call} blocks and was called on an event-loop thread (OptionEventLoops), where waiting stalls every connection of the loop and can wait for the loop itself: use {asyncMember} instead.");
    }

    /// <summary>True on this loop's own thread.</summary>
    public bool IsCurrent => ThreadRole.IsLoopOf(this);

    /// <summary>Whether this system has epoll (Linux); elsewhere the option asking for event loops is ignored.</summary>
    public static bool IsSupported => OperatingSystem.IsLinux();

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
                    more[loops.Length] = new EventLoop(loops.Length);
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
        var events = Mask.In | Mask.Pri | Mask.Out | Mask.RdHup | Native.EPOLLET;
        MemoryMarshal.Write(ev, in events);
        MemoryMarshal.Write(ev.AsSpan(s_dataOffset), in token);
        if (Native.epoll_ctl(_epoll, Native.EPOLL_CTL_ADD, fd, ev) != 0)
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
            Native.epoll_ctl(_epoll, Native.EPOLL_CTL_DEL, fd, null);
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
        if (Interlocked.Exchange(ref _wakePending, 1) == 0)
        {
            ulong one = 1;
            Native.write(_wake, ref one, sizeof(ulong));
        }
    }

    /// <summary>Runs the transport's <see cref="EpollTransport.RunDeferred"/> after the loop has looked at its set again; loop thread only.</summary>
    public void Defer(EpollTransport transport)
    {
        System.Diagnostics.Debug.Assert(IsCurrent, "deferred from the loop's own thread");
        _deferred.Enqueue(transport);
    }

    private void Run()
    {
        ThreadRole.BecomeLoop(this);
        // Pinned once: the array stays fixed while epoll_wait blocks on it.
        var events = GC.AllocateArray<byte>(MaxEvents * s_stride, pinned: true);
        var backoff = 0;
        while (true)
        {
            // With deferred work waiting, only look at what is ready now.
            var count = Native.epoll_wait(_epoll, events, MaxEvents, _deferred.Count > 0 ? 0 : -1);
            if (count < 0)
            {
                // EINTR (a signal) is the only error a valid set gives; anything else would spin, so it is reported
                // once per streak and retried, backing off to a second.
                var error = Marshal.GetLastPInvokeError();
                if (error == Native.EINTR)
                    continue;
                if (backoff == 0)
                    LoopFaults.Report(new SocketException(error));
                backoff = Math.Min(MaxBackoffMs, Math.Max(FirstBackoffMs, backoff * 2));
                Thread.Sleep(backoff);
                continue;
            }
            backoff = 0;
            var slots = Volatile.Read(ref _slots);
            for (var i = 0; i < count; i++)
            {
                var entry = events.AsSpan(i * s_stride, s_stride);
                var mask = MemoryMarshal.Read<uint>(entry);
                var token = MemoryMarshal.Read<ulong>(entry.Slice(s_dataOffset));
                if (token == WakeToken)
                {
                    RunPosted();
                    continue;
                }
                var slot = (int)(uint)token;
                if (slot >= slots.Length)
                    slots = Volatile.Read(ref _slots);
                var transport = slot < slots.Length ? slots[slot] : null;
                if (transport == null || transport.Token != token)
                    continue;
                try
                {
                    transport.OnEvents(mask);
                }
                catch (Exception exception)
                {
                    // Nothing may end the loop that serves the others: the connection fails (its OnError) and closes.
                    Faulted(transport, exception);
                }
            }
            // Those deferred before this pass; a connection deferred again now waits for the next one.
            for (var n = _deferred.Count; n > 0; n--)
                RunDeferred(_deferred.Dequeue());
        }
    }

    private void RunPosted()
    {
        ulong count = 0;
        Native.read(_wake, ref count, sizeof(ulong));
        // Cleared before the drain: a post that finds it clear writes again, so nothing posted waits unseen.
        Volatile.Write(ref _wakePending, 0);
        while (_posted.TryDequeue(out var transport))
            RunDeferred(transport);
    }

    private static void RunDeferred(EpollTransport transport)
    {
        try
        {
            transport.RunDeferred();
        }
        catch (Exception exception)
        {
            Faulted(transport, exception);
        }
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

    private static class Native
    {
        public const int EPOLL_CLOEXEC = 0x80000;
        public const int EPOLL_CTL_ADD = 1;
        public const int EPOLL_CTL_DEL = 2;
        public const uint EPOLLET = 0x80000000;
        public const int EINTR = 4;
        public const int EFD_NONBLOCK = 0x800;
        public const int EFD_CLOEXEC = 0x80000;

        [DllImport("libc", SetLastError = true)]
        public static extern int epoll_create1(int flags);

        [DllImport("libc", SetLastError = true)]
        // The event may be null for EPOLL_CTL_DEL (Linux 2.6.9 and later).
        public static extern int epoll_ctl(int epfd, int op, int fd, byte[]? ev);

        [DllImport("libc", SetLastError = true)]
        public static extern int epoll_wait(int epfd, [Out] byte[] events, int maxevents, int timeout);

        [DllImport("libc", SetLastError = true)]
        public static extern int eventfd(uint initval, int flags);

        [DllImport("libc", SetLastError = true)]
        public static extern nint read(int fd, ref ulong value, nint count);

        [DllImport("libc", SetLastError = true)]
        public static extern nint write(int fd, ref ulong value, nint count);

        [DllImport("libc", SetLastError = true)]
        public static extern int close(int fd);
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
