using System;
using System.Threading;
using NetCoreServer.Transports;

namespace NetCoreServer;

/// <summary>
/// Settings and diagnostics of the library's own epoll event loops (<c>OptionEventLoops</c> of stream servers and
/// clients). The loops are process-wide, shared by every server and client that asks for them, so what is set here
/// holds for all of them; a failure inside one that no connection can be told of is reported here.
/// </summary>
public static class EventLoops
{
    /// <summary>
    /// The <c>OptionEventLoops</c> a new server starts with: one loop per core where the loops run (Linux), else 0 (the
    /// runtime's thread pool). Clients start at 0. See docs/guides/event-loops.md for when to pick which.
    /// </summary>
    public static int DefaultCount => EventLoop.IsSupported ? Environment.ProcessorCount : 0;

    /// <summary>
    /// How long a hook (with the completion that raised it) may run on an event loop's thread before the loop is handed
    /// to another thread, which serves the loop's other connections meanwhile; the hook's own connection waits for it
    /// as ever. Default 1 ms: a loop is handed on within one to two of these. Shorter than 1 ms counts as 1 ms.
    /// <see cref="Timeout.InfiniteTimeSpan"/> turns the watchdog off: a hook then holds its loop however long it runs,
    /// except that a blocking call of the library (Send waiting, Connect, Receive, ...) still hands the loop on before it
    /// waits. See docs/design/event-loops.md.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Zero or negative, other than <see cref="Timeout.InfiniteTimeSpan"/>.</exception>
    public static TimeSpan HandoffThreshold
    {
        get => LoopWatchdog.Threshold;
        set
        {
            if (value <= TimeSpan.Zero && value != Timeout.InfiniteTimeSpan)
                throw new ArgumentOutOfRangeException(nameof(value), value, "a positive time, or Timeout.InfiniteTimeSpan");
            LoopWatchdog.Threshold = value;
        }
    }

    /// <summary>
    /// The most threads that serve the event loops at once, counting those still inside a hook whose loop was handed on
    /// and the few spares kept for the next handoff (default 256). At the cap a loop whose hook blocks is not given a new
    /// thread: it waits, stalling its connections, until a blocked hook returns. Protects against a thread per blocked
    /// hook without bound.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">Less than 1.</exception>
    public static int MaxThreads
    {
        get => LoopThreads.MaxThreads;
        set
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, 1);
            LoopThreads.MaxThreads = value;
        }
    }

    /// <summary>
    /// Raised on the loop's thread for what an event loop caught instead of dying. Handlers must be quick; what they throw
    /// is dropped. A hook's own exception never comes here: it goes to the connection's <c>OnHandlerException</c>.
    /// </summary>
    /// <remarks>
    /// Two kinds arrive: an exception from the library's own code while serving a connection (its socket is then closed:
    /// a read or send it had waiting ends with <c>OnError(SocketError.SocketError)</c> and the disconnect), or an
    /// unexpected <c>epoll_wait</c> error (a <see cref="System.Net.Sockets.SocketException"/>, raised once per streak;
    /// the loop retries, backing off to one second). See docs/design/event-loops.md.
    /// </remarks>
    public static event Action<Exception>? Error
    {
        add => LoopFaults.Raised += value;
        remove => LoopFaults.Raised -= value;
    }
}
