using System;
using System.Diagnostics;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NetCoreServer.Buffers;
using NetCoreServer.Transports;

namespace NetCoreServer.Engine;

/// <summary>
/// The receiving side of a session: one loop, started after the connect hooks (and the TLS handshake), that reads and
/// hands the host what arrived. While idle it holds no buffer: a zero-byte receive waits for data and only then is a
/// pooled buffer rented. What the host leaves unconsumed stays at the buffer's front for the next read.
/// </summary>
/// <remarks>
/// The buffer fields are the loop's alone (one loop runs at a time). The flags, the park count and the pause wait are
/// guarded by the <see cref="SessionLock"/>; <see cref="_onHold"/> and the idle clock are also
/// read without it. The loop is a callback, not an async method, so an idle connection holds no state machine.
/// </remarks>
internal struct ReceivePump
{
    private byte[]? _buffer;
    // The unconsumed bytes at the buffer's front; while a read is delivered, what the host consumed of it.
    private int _filled;
    private int _size;
    private long _bytesReceived;
    // What few connections need: the pause wait, the idle clock.
    private PumpSide? _side;
    // Parks minus unparks: a completion may unpark before the starting thread parked, so it dips to -1 for a moment.
    private sbyte _parks;
    private bool _requested;
    private bool _running;
    private bool _onHold;
    private bool _idleWatched;
    // Set by a hold: what was left is handed again before the next read (the loop's own).
    private bool _redeliver;

    public long BytesReceived => Volatile.Read(ref _bytesReceived);

    /// <summary>The loop runs (it may wait in a transport call).</summary>
    public readonly bool IsRunning(SessionLock.Held held) => _running;

    /// <summary>Nothing here holds a finish back: the loop stopped, or it waits in a transport call.</summary>
    public readonly bool IsQuiescent(SessionLock.Held held) => !_running || _parks > 0;

    /// <summary>Reading stops while the connection is unwritable (when the options say so).</summary>
    private static bool ReadPaused(StreamSessionEngine engine) => (engine.SenderIfAny?.Unwritable ?? false) && engine.Options.StopReadingWhenUnwritable;

    /// <summary>Starts the loop once (when the transport is ready: after the TLS handshake); later calls do nothing.</summary>
    public void Start(StreamSessionEngine engine)
    {
        using (var held = engine.Enter())
        {
            if (_requested || engine.Closed || !engine.Ready)
                return;
            _requested = true;
            _running = true;
        }
        WatchIdle(engine);
        _size = engine.Options.EffectiveReceiveBufferSize;
        Loop(engine, resumed: false, default);
    }

    /// <summary>
    /// Reads until the connection ends or a receive is pending; the completion of that receive (or the end of a pause)
    /// runs it again. Synchronous completions iterate instead of recursing.
    /// </summary>
    public void Loop(StreamSessionEngine engine, bool resumed, IoResult result)
    {
        var ended = true;
        try
        {
            if (resumed && !HandleReceive(engine, result))
                return;
            var transport = engine.Transport;
            while (!engine.Closed)
            {
                var paused = PauseWait(engine);
                if (paused != null)
                {
                    // Read nothing more until the peer has taken what it was sent; an empty buffer goes back meanwhile.
                    if (_buffer != null && _filled == 0)
                    {
                        EngineBuffers.Return(_buffer);
                        _buffer = null;
                    }
                    ended = false;
                    _ = ResumeAfterPauseAsync(engine, paused);
                    return;
                }
                if (_redeliver)
                {
                    _redeliver = false;
                    if (!(_filled > 0 ? RedeliverKept(engine) : ResumeHost(engine)))
                        return;
                    continue;
                }
                var buffer = _buffer;
                if (!transport.TryReceive(buffer == null ? Memory<byte>.Empty : buffer.AsMemory(_filled), engine, out result))
                {
                    // Pending: its completion may already run the loop on another thread; nothing here touches it any more.
                    ended = false;
                    Park(engine);
                    return;
                }
                if (!HandleReceive(engine, result))
                    return;
            }
        }
        finally
        {
            if (ended)
                End(engine);
        }
    }

    /// <summary>A pending receive completed (the engine is the transport's completion target): the loop runs on.</summary>
    public void Completed(StreamSessionEngine engine, IoResult result)
    {
        Unpark(engine);
        try
        {
            Loop(engine, resumed: true, result);
        }
        catch (Exception)
        {
            // A fault in the engine's own code (hooks cannot throw into it): the connection ends, not the completion thread.
            engine.Abort(DisconnectReason.Error);
        }
    }

    private static async Task ResumeAfterPauseAsync(StreamSessionEngine engine, Task writable)
    {
        engine.Receiver.Park(engine);
        try
        {
            await writable.ConfigureAwait(false);
        }
        finally
        {
            engine.Receiver.Unpark(engine);
        }
        engine.Receiver.Loop(engine, resumed: false, default);
    }

    /// <summary>Marks the loop as waiting in a transport call; a close that came meanwhile attempts its finish again.</summary>
    private void Park(StreamSessionEngine engine)
    {
        bool closed;
        using (var held = engine.Enter())
        {
            _parks++;
            closed = engine.Closed;
        }
        if (closed)
            engine.TryFinish();
    }

    public void Unpark(StreamSessionEngine engine)
    {
        using (var held = engine.Enter())
            _parks--;
    }

    /// <summary>Handles what one receive brought; false when the loop ends.</summary>
    private bool HandleReceive(StreamSessionEngine engine, IoResult result)
    {
        var buffer = _buffer;
        if (result.Error == SocketError.WouldBlock)
        {
            // A transport that reads at once (the event loops) found nothing after all: idle again without a buffer.
            if (buffer != null && _filled == 0)
            {
                EngineBuffers.Return(buffer);
                _buffer = null;
            }
            return true;
        }
        if (buffer == null && result.Succeeded)
        {
            // The zero-byte wait saw data: now rent the buffer to read it into.
            _buffer = EngineBuffers.Rent(_size);
            return true;
        }
        if (!TakeReceived(engine, result))
            return false;
        Debug.Assert(buffer != null, "without a buffer only a failed receive gets here");
        if (_idleWatched)
            Volatile.Write(ref _side!.LastReceived, engine.Options.Timers.Now);
        var read = result.Bytes;
        var kept = _filled;
        if (!DeliverAndKeep(engine, buffer, kept + read))
            return false;
        if (!ReferenceEquals(_buffer, buffer))
        {
            // Grown already: a partial message filled the whole buffer.
        }
        else if (read == buffer.Length - kept)
        {
            // The read filled the buffer: the peer sends faster than one buffer per read. A partial message at the
            // front (framed, HTTP, WebSocket input split anywhere) moves with it.
            if (buffer.Length < engine.Options.EffectiveReceiveBufferLimit)
                _buffer = Grow(engine, buffer, _filled);
        }
        else if (_filled > 0)
        {
            // A partial message stays at the front and waits for the rest.
        }
        else
        {
            // A short read and nothing kept: idle without a buffer, shrinking back after a burst.
            if (read < buffer.Length / 4)
                _size = Math.Max(engine.Options.EffectiveReceiveBufferSize, _size / 2);
            EngineBuffers.Return(buffer);
            _buffer = null;
        }
        return true;
    }

    /// <summary>After a hold: hands the protocol what it left; false when the loop ends.</summary>
    private bool RedeliverKept(StreamSessionEngine engine)
    {
        var buffer = _buffer!;
        if (!DeliverAndKeep(engine, buffer, _filled))
            return false;
        if (_filled == 0)
        {
            EngineBuffers.Return(buffer);
            _buffer = null;
        }
        return true;
    }

    /// <summary>
    /// Delivers the buffer's first <paramref name="total"/> bytes and keeps what the host left at its front, growing the
    /// buffer when one message fills it; false when the loop ends (a hook threw, or a message passed the limit).
    /// </summary>
    private bool DeliverAndKeep(StreamSessionEngine engine, byte[] buffer, int total)
    {
        // After a local Disconnect, data is read and dropped until the peer's end of stream.
        var filled = engine.State == SessionState.Connected ? Deliver(engine, buffer, total) : 0;
        if (filled < 0)
            return false;
        _filled = filled;
        if (filled == buffer.Length)
        {
            if (buffer.Length >= engine.Options.EffectiveReceiveBufferLimit)
            {
                // Longer than the limit, and its protocol did not refuse it itself.
                engine.Abort(DisconnectReason.ProtocolError);
                return false;
            }
            _buffer = Grow(engine, buffer, filled);
        }
        return true;
    }

    /// <summary>After a hold with nothing kept here: the host hands over what it kept itself; false when the loop ends.</summary>
    private static bool ResumeHost(StreamSessionEngine engine)
    {
        if (engine.State != SessionState.Connected)
            return true;
        var previous = SendCork.Enter(engine);
        try
        {
            return engine.RunHook(HookKind.Other, 0, static (e, _) => e.Host.EngineResumed());
        }
        finally
        {
            SendCork.Exit(engine, previous);
        }
    }

    /// <summary>The loop has ended: gives its buffer back, and closes or finishes what waited for it.</summary>
    private void End(StreamSessionEngine engine)
    {
        var buffer = _buffer;
        _buffer = null;
        _filled = 0;
        if (buffer != null)
            EngineBuffers.Return(buffer);
        bool close;
        using (var held = engine.Enter())
        {
            _running = false;
            close = engine.ShutdownDone;
        }
        if (close)
            engine.CloseTransport();
        engine.TryFinish();
    }

    /// <summary>Doubles the buffer (up to the limit), keeping its first <paramref name="keep"/> bytes.</summary>
    private byte[] Grow(StreamSessionEngine engine, byte[] buffer, int keep)
    {
        _size = Math.Min(buffer.Length * 2, engine.Options.EffectiveReceiveBufferLimit);
        var larger = EngineBuffers.Rent(_size);
        buffer.AsSpan(0, keep).CopyTo(larger);
        EngineBuffers.Return(buffer);
        return larger;
    }

    /// <summary>
    /// Hands the host the <paramref name="total"/> bytes at the buffer's front until it consumes nothing more (or
    /// everything); moves the rest to the front. Returns the bytes kept, or -1 when a hook threw. What the hooks send
    /// meanwhile goes out together afterwards (the <see cref="SendCork"/>).
    /// </summary>
    private int Deliver(StreamSessionEngine engine, byte[] buffer, int total)
    {
        var previous = SendCork.Enter(engine);
        try
        {
            var offset = 0;
            while (offset < total && engine.State == SessionState.Connected)
            {
                if (!engine.RunHook(HookKind.Other, (buffer, offset, count: total - offset), static (e, a) => e.Receiver._filled = e.Host.EngineReceived(a.buffer, a.offset, a.count)))
                    return -1;
                // The hook's count comes back through _filled, free while a read is delivered (the caller sets it after).
                var consumed = _filled;
                if (consumed <= 0)
                    break;
                offset += Math.Min(consumed, total - offset);
            }
            if (offset >= total || engine.State != SessionState.Connected)
                return 0;
            if (offset > 0)
                System.Buffer.BlockCopy(buffer, offset, buffer, 0, total - offset);
            return total - offset;
        }
        finally
        {
            SendCork.Exit(engine, previous);
        }
    }

    /// <summary>Blocking receive for hosts that do not run the loop (NetCoreServer's synchronous client pattern).</summary>
    public IoResult ReceiveBlocking(StreamSessionEngine engine, Span<byte> buffer)
    {
        using (var held = engine.Enter())
        {
            if (_running || !engine.Ready || engine.State != SessionState.Connected || buffer.IsEmpty)
                return IoResult.Failed(SocketError.Success);
        }
        var result = engine.Transport.Receive(buffer);
        TakeReceived(engine, result);
        return result;
    }

    /// <summary>
    /// What every data receive does with its result: a failure ends the connection as an error, an end of stream
    /// disconnects (what we still owe the peer is delivered first), received bytes are counted. True when there are bytes.
    /// </summary>
    private bool TakeReceived(StreamSessionEngine engine, IoResult result)
    {
        if (!result.Succeeded)
        {
            engine.OnTransportError(result.Error);
            return false;
        }
        if (result.Bytes == 0)
        {
            engine.Disconnect(DisconnectReason.PeerClosed);
            return false;
        }
        Interlocked.Add(ref _bytesReceived, result.Bytes);
        engine.Host.EngineCounted(result.Bytes, 0);
        return true;
    }

    /// <summary>The wait of a loop that must pause (unwritable, or held by the protocol), or null when it may read.</summary>
    private Task? PauseWait(StreamSessionEngine engine)
    {
        if (!(engine.SenderIfAny?.Unwritable ?? false) && !Volatile.Read(ref _onHold))
            return null;
        using (var held = engine.Enter())
        {
            if (engine.Closed || (!_onHold && !ReadPaused(engine)))
                return null;
            var side = _side ??= new PumpSide();
            return (side.Paused ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
        }
    }

    /// <summary>The paused loop's wait, taken to be released (writable again, or closed).</summary>
    public TaskCompletionSource? TakePaused(SessionLock.Held held)
    {
        var side = _side;
        if (side == null)
            return null;
        var paused = side.Paused;
        side.Paused = null;
        return paused;
    }

    /// <summary>
    /// From inside the protocol's receive call: hand it nothing more, and read nothing more, until <see cref="Release"/>;
    /// what it left is handed to it again first (HTTP holds while its answers wait to be sent).
    /// </summary>
    public void Hold(StreamSessionEngine engine)
    {
        using (var held = engine.Enter())
            Volatile.Write(ref _onHold, true);
        // The loop's own field: this runs on the loop, inside Deliver.
        _redeliver = true;
    }

    /// <summary>Ends a <see cref="Hold"/> (any thread): the loop hands over what it kept, then reads again.</summary>
    public void Release(StreamSessionEngine engine)
    {
        TaskCompletionSource? paused = null;
        using (var held = engine.Enter())
        {
            if (!_onHold)
                return;
            Volatile.Write(ref _onHold, false);
            if (!ReadPaused(engine))
                paused = TakePaused(held);
        }
        paused?.TrySetResult();
    }

    /// <summary>The socket closed: a paused loop is released to end, and the idle watch stops.</summary>
    public void OnClosed(StreamSessionEngine engine)
    {
        TaskCompletionSource? paused;
        using (var held = engine.Enter())
            paused = TakePaused(held);
        if (Volatile.Read(ref _idleWatched))
            IdleSweep.Forget(engine);
        paused?.TrySetResult();
    }

    /// <summary>Starts watching for idleness (with the loop: only received bytes count as activity).</summary>
    private void WatchIdle(StreamSessionEngine engine)
    {
        if (engine.Options.IdleTimeout <= TimeSpan.Zero)
            return;
        using (var held = engine.Enter())
        {
            if (engine.Closed)
                return;
            (_side ??= new PumpSide()).LastReceived = engine.Options.Timers.Now;
            Volatile.Write(ref _idleWatched, true);
        }
        IdleSweep.Watch(engine);
    }

    /// <summary>Called by the sweep: disconnects when nothing was received for the idle timeout.</summary>
    public void CheckIdle(StreamSessionEngine engine, long now)
    {
        var timeout = engine.Options.IdleTimeout;
        if (engine.Closed || timeout <= TimeSpan.Zero || !Volatile.Read(ref _idleWatched))
            return;
        // A session that stopped reading because its peer does not read what it is sent is not idle.
        if (ReadPaused(engine) || Volatile.Read(ref _onHold))
        {
            Volatile.Write(ref _side!.LastReceived, now);
            return;
        }
        if (now - Volatile.Read(ref _side!.LastReceived) < (long)timeout.TotalMilliseconds)
            return;
        // What was accepted is still delivered, but a silent peer's end of stream is not waited for.
        engine.Disconnect(DisconnectReason.Timeout, linger: false);
    }

    /// <summary>What few connections need, made on first need under the lock.</summary>
    private sealed class PumpSide
    {
        /// <summary>The wait of a loop paused while unwritable or held.</summary>
        public TaskCompletionSource? Paused;

        /// <summary>When bytes were last received (TimerWheel.Now of the engine's wheel), while the idle timeout watches; written by the loop, read by the sweep.</summary>
        public long LastReceived;
    }
}
