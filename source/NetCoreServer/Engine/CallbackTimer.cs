using System;

namespace NetCoreServer.Engine;

/// <summary>A <see cref="TimerEntry"/> that calls a static method with a state object, for owners that cannot derive from it.</summary>
internal sealed class CallbackTimer : TimerEntry
{
    private readonly Action<object> _callback;
    private readonly object _state;

    public CallbackTimer(TimerWheel wheel, Action<object> callback, object state)
        : base(wheel)
    {
        _callback = callback;
        _state = state;
    }

    protected override void Expired() => _callback(_state);
}
