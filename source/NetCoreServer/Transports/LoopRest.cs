namespace NetCoreServer.Transports;

/// <summary>
/// How an <see cref="EventLoop"/> waits for its next pass. After a pass that had work it looks at its set once more
/// without waiting; when that look finds nothing, it gives its core away once (<c>sched_yield</c>) and then sleeps in
/// <c>epoll_wait</c> until an edge comes.
/// </summary>
/// <remarks>
/// A loop that sleeps as soon as its set is empty is woken for every few bytes a busy peer writes: a context switch
/// and a small read each time. Yielding first lets a thread that is ready to run on the same core (a peer on this
/// machine, another loop, a hook's thread) run now; what it writes meanwhile is read in the same pass, and the wake-up
/// is saved. Under load the first look finds work and nobody yields; on a quiet machine the yield returns at once and
/// costs one system call per pass that ends the loop's work. The loop never spins: at most one look and one yield
/// before it sleeps. Measured (NetCoreServer's TcpEchoClient at 100 connections: a sixth of the receives, a sixth to a
/// ninth of the server's CPU per message): docs/design/event-loops.md, "Yielding before sleeping".
/// </remarks>
internal struct LoopRest
{
    private State _state;

    private enum State
    {
        // A loop that has just started (a wait without a timeout returns only with events).
        Slept,
        // The last pass had work: look again before sleeping.
        Busy,
        // The look after the work found nothing: yield, then sleep.
        Drained,
    }

    /// <summary>
    /// The timeout of the next <c>epoll_wait</c> (0: only look; -1: sleep until an edge), and whether to yield the core
    /// first. <paramref name="deferredWaiting"/>: connections that used up their turn wait to run after the look.
    /// </summary>
    public readonly int NextTimeout(bool deferredWaiting, out bool yieldFirst)
    {
        yieldFirst = false;
        if (deferredWaiting || _state == State.Busy)
            return 0;
        yieldFirst = _state == State.Drained;
        return -1;
    }

    /// <summary>What <c>epoll_wait</c> with <paramref name="timeout"/> returned (<paramref name="events"/>, not an error), and whether deferred connections run in this pass.</summary>
    public void Returned(int timeout, int events, bool deferredWaiting)
    {
        if (events > 0 || deferredWaiting)
            _state = State.Busy;
        else
            _state = timeout == 0 ? State.Drained : State.Slept;
    }
}
