using System;
using System.Threading;

namespace NetCoreServer.Engine;

/// <summary>
/// The engine's lifecycle in one int: eleven flags, the OnDisconnecting phase, the <see cref="SessionState"/>, the
/// <see cref="DisconnectReason"/> and the count of holds on teardown. Written under the session lock (each setter takes its proof), read with a volatile
/// read, some without the lock.
/// </summary>
/// <remarks>
/// Packed rather than a field per flag: the engine is on every idle connection (it was 192 B with a field each, 96 B
/// packed; docs/design/engine.md). A value that does not fit its bits is refused at run time in every build, and
/// LifecycleFlagsTests fails when an enum outgrows its bits.
/// </remarks>
internal struct LifecycleFlags
{
    internal const int PhaseShift = 11;
    internal const int StateShift = 13;
    internal const int ReasonShift = 15;
    internal const int HoldsShift = 20;
    internal const int PhaseMask = 3;
    internal const int StateMask = 3;
    internal const int ReasonMask = 31;
    // The constructor's hold and, at most, one connect-phase hook's.
    internal const int HoldsMask = 3;

    private int _bits;

    public LifecycleFlags(bool ready) => _bits = (ready ? (int)LifecycleFlag.Ready : 0) | (1 << HoldsShift);

    public SessionState State => (SessionState)Get(StateShift, StateMask);

    public DisconnectReason Reason => (DisconnectReason)Get(ReasonShift, ReasonMask);

    public DisconnectingPhase Phase => (DisconnectingPhase)Get(PhaseShift, PhaseMask);

    /// <summary>Holds on teardown: the constructor's until the connect hooks are over, and a connect-phase hook's while it runs.</summary>
    public int Holds => Get(HoldsShift, HoldsMask);

    public bool Has(LifecycleFlag flag) => (Volatile.Read(ref _bits) & (int)flag) != 0;

    public void Set(LifecycleFlag flag, bool value, SessionLock.Held held)
    {
        Volatile.Write(ref _bits, value ? _bits | (int)flag : _bits & ~(int)flag);
    }

    public void SetState(SessionState state, SessionLock.Held held) => Set(StateShift, StateMask, (int)state, held);

    public void SetReason(DisconnectReason reason, SessionLock.Held held) => Set(ReasonShift, ReasonMask, (int)reason, held);

    public void SetPhase(DisconnectingPhase phase, SessionLock.Held held) => Set(PhaseShift, PhaseMask, (int)phase, held);

    public void SetHolds(int holds, SessionLock.Held held) => Set(HoldsShift, HoldsMask, holds, held);

    private int Get(int shift, int mask) => (Volatile.Read(ref _bits) >> shift) & mask;

    private void Set(int shift, int mask, int value, SessionLock.Held held)
    {
        // Transitions only, a handful per connection: a value cut to its bits would corrupt its neighbours silently.
        if ((uint)value > (uint)mask)
            throw new InvalidOperationException($"lifecycle value {value} does not fit its {mask} mask");
        Volatile.Write(ref _bits, (_bits & ~(mask << shift)) | (value << shift));
    }
}

/// <summary>The one-bit flags of <see cref="LifecycleFlags"/>; bits 11 to 21 hold its packed values.</summary>
[Flags]
internal enum LifecycleFlag
{
    Ready = 1 << 0,
    Completed = 1 << 1,
    HooksStarted = 1 << 2,
    Graceful = 1 << 3,
    Linger = 1 << 4,
    ShutdownStarted = 1 << 5,
    ShutdownDone = 1 << 6,
    Closed = 1 << 7,
    Finished = 1 << 8,
    TransportDisposed = 1 << 9,
    // The send loop's sender role (SendLoop owns it): here, beside Closed and Ready, because a multicast's wake-up
    // reads it for every session and message, and the engine's line is the one that wake-up reads anyway.
    SenderRunning = 1 << 10,
}

/// <summary>Where OnDisconnecting stands; held in two bits of <see cref="LifecycleFlags"/>.</summary>
internal enum DisconnectingPhase : byte
{
    NotRaised,
    Raising,
    Done,
}
