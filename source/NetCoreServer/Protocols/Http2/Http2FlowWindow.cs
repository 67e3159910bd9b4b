namespace NetCoreServer.Protocols.Http2;

/// <summary>
/// One flow-control window (RFC 9113 §5.2, §6.9), of a stream or of the connection, on either side. Sending: DATA may
/// go out while <see cref="Available"/> is above 0, WINDOW_UPDATE adds to it, a change of SETTINGS_INITIAL_WINDOW_SIZE
/// moves it by the difference and may leave it negative (§6.9.2). Receiving: each DATA frame's whole length, padding
/// included, is taken from it, and credit goes back with <see cref="Release"/> as the application consumes the data.
/// A window above 2^31-1, or DATA past the window, is a FLOW_CONTROL_ERROR. A mutable struct: keep it in a field.
/// Not thread-safe.
/// </summary>
internal struct Http2FlowWindow
{
    private int _unreleased;

    /// <param name="initial">The initial size: SETTINGS_INITIAL_WINDOW_SIZE for a stream, 65,535 for the connection.</param>
    public Http2FlowWindow(int initial)
    {
        Available = initial;
    }

    /// <summary>The bytes that may still be sent (or received); negative after the initial size was lowered.</summary>
    public int Available { get; private set; }

    /// <summary>Takes <paramref name="length"/> bytes from the window; false, and nothing taken, when they do not fit.</summary>
    public bool TryConsume(int length)
    {
        if (length < 0 || length > Available)
            return false;
        Available -= length;
        return true;
    }

    /// <summary>Adds a WINDOW_UPDATE increment; false, and nothing added, when the window would pass 2^31-1.</summary>
    public bool TryIncrease(int increment)
    {
        var sum = (long)Available + increment;
        if (increment < 0 || sum > Http2Settings.MaxWindowSize)
            return false;
        Available = (int)sum;
        return true;
    }

    /// <summary>
    /// SETTINGS_INITIAL_WINDOW_SIZE changed by <paramref name="delta"/> (new minus old): the window moves by it; false
    /// when it would pass 2^31-1, which is a connection FLOW_CONTROL_ERROR.
    /// </summary>
    public bool TryAdjust(int delta)
    {
        var sum = (long)Available + delta;
        if (sum > Http2Settings.MaxWindowSize || sum < int.MinValue)
            return false;
        Available = (int)sum;
        return true;
    }

    /// <summary>
    /// Receiving side: the application consumed <paramref name="length"/> bytes. Returns the WINDOW_UPDATE increment
    /// to send now, or 0: credit is returned once half of <paramref name="target"/> (the window this side wants to
    /// offer) has built up, so that a stream of small reads does not cost a frame each.
    /// </summary>
    public int Release(int length, int target)
    {
        _unreleased += length;
        if (_unreleased < target / 2 || (long)Available + _unreleased > Http2Settings.MaxWindowSize)
            return 0;
        var increment = _unreleased;
        _unreleased = 0;
        Available += increment;
        return increment;
    }
}
