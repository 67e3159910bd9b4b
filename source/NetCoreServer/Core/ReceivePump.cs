using System;
using System.Diagnostics;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Core;

/// <summary>
/// The receiving side of a session: one loop, started after the connect hooks (and the TLS handshake), that reads and
/// hands the host what arrived. While idle it holds no buffer: a zero-byte receive waits for data and only then is a
/// pooled buffer rented. What the host leaves unconsumed stays at the buffer's front for the next read.
/// </summary>
/// <remarks>
/// The buffer fields are the loop's alone (one loop runs at a time). The flags, the park count and the pause wait are
/// guarded by the session lock (the engine's monitor); <see cref="_held"/> and <see cref="_lastReceived"/> are also
/// read without it. The loop is a callback, not an async method, so an idle connection holds no state machine.
/// </remarks>
internal sealed class ReceivePump : IReceiveCompletion
{
    private readonly StreamSessionEngine _engine;
    private byte[]? _buffer;
    // The unconsumed bytes at the buffer's front; while a read is delivered, what the host consumed of it.
    private int _filled;
    private int _size;
    private long _bytesReceived;
    // When bytes were last received (Environment.TickCount64), while the idle timeout watches.
    private long _lastReceived;
    // The wait of a loop paused while unwritable or held.
    private TaskCompletionSource? _paused;
    // Parks minus unparks: a completion may unpark before the starting thread parked, so it dips to -1 for a moment.
    private sbyte _parks;
    private bool _requested;
    private bool _running;
    private bool _held;
    private bool _idleWatched;
    // Set by a hold: what was left is handed again before the next read (the loop's own).
    private bool _redeliver;

    public ReceivePump(StreamSessionEngine engine) => _engine = engine;

    public long BytesReceived => Interlocked.Read(ref _bytesReceived);

    /// <summary>The loop runs (it may wait in a transport call); under the lock.</summary>
    public bool RunningLocked => _running;

    /// <summary>Nothing here holds a finish back: the loop stopped, or it waits in a transport call; under the lock.</summary>
    public bool QuiescentLocked => !_running || _parks > 0;

    private EngineOptions Options => _engine.Options;

    /// <summary>Reading stops while the connection is unwritable (when the options say so).</summary>
    private bool ReadPaused => (_engine.SenderIfAny?.Unwritable ?? false) && Options.StopReadingWhenUnwritable;

    /// <summary>Starts the loop once (when the transport is ready: after the TLS handshake); later calls do nothing.</summary>
    public void Start()
    {
        lock (_engine)
        {
            if (_requested || _engine.Closed || !_engine.Ready)
                return;
            _requested = true;
            _running = true;
        }
        WatchIdle();
        _size = Options.EffectiveReceiveBufferSize;
        Loop(resumed: false, default);
    }

    /// <summary>
    /// Reads until the connection ends or a receive is pending; the completion of that receive (or the end of a pause)
    /// runs it again. Synchronous completions iterate instead of recursing.
    /// </summary>
    private void Loop(bool resumed, IoResult result)
    {
        var ended = true;
        try
        {
            if (resumed && !HandleReceive(result))
                return;
            var transport = _engine.Transport;
            while (!_engine.Closed)
            {
                var paused = PauseWait();
                if (paused != null)
                {
                    // Read nothing more until the peer has taken what it was sent; an empty buffer goes back meanwhile.
                    if (_buffer != null && _filled == 0)
                    {
                        EngineBuffers.Return(_buffer);
                        _buffer = null;
                    }
                    ended = false;
                    _ = ResumeAfterPauseAsync(paused);
                    return;
                }
                if (_redeliver)
                {
                    _redeliver = false;
                    if (!(_filled > 0 ? RedeliverKept() : ResumeHost()))
                        return;
                    continue;
                }
                var buffer = _buffer;
                if (!transport.TryReceive(buffer == null ? Memory<byte>.Empty : buffer.AsMemory(_filled), this, out result))
                {
                    // Pending: its completion may already run the loop on another thread; nothing here touches it any more.
                    ended = false;
                    Park();
                    return;
                }
                if (!HandleReceive(result))
                    return;
            }
        }
        finally
        {
            if (ended)
                End();
        }
    }

    void IReceiveCompletion.ReceiveCompleted(IoResult result)
    {
        Unpark();
        try
        {
            Loop(resumed: true, result);
        }
        catch (Exception)
        {
            // A fault in the engine's own code (hooks cannot throw into it): the connection ends, not the completion thread.
            _engine.Abort(DisconnectReason.Error);
        }
    }

    private async Task ResumeAfterPauseAsync(Task writable)
    {
        Park();
        try
        {
            await writable.ConfigureAwait(false);
        }
        finally
        {
            Unpark();
        }
        Loop(resumed: false, default);
    }

    /// <summary>Marks the loop as waiting in a transport call; a close that came meanwhile attempts its finish again.</summary>
    private void Park()
    {
        bool closed;
        lock (_engine)
        {
            _parks++;
            closed = _engine.Closed;
        }
        if (closed)
            _engine.TryFinish();
    }

    private void Unpark()
    {
        lock (_engine)
            _parks--;
    }

    /// <summary>Handles what one receive brought; false when the loop ends.</summary>
    private bool HandleReceive(IoResult result)
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
        if (!TakeReceived(result))
            return false;
        Debug.Assert(buffer != null, "without a buffer only a failed receive gets here");
        if (_idleWatched)
            Volatile.Write(ref _lastReceived, Environment.TickCount64);
        var read = result.Bytes;
        var kept = _filled;
        if (!DeliverAndKeep(buffer, kept + read))
            return false;
        if (_filled > 0)
        {
            // A partial message stays at the front and waits for the rest.
        }
        else if (read == buffer.Length - kept)
        {
            // The read filled the buffer: the peer sends faster than one buffer per read.
            if (buffer.Length < Options.EffectiveReceiveBufferLimit)
                _buffer = Grow(buffer, 0);
        }
        else
        {
            // A short read and nothing kept: idle without a buffer, shrinking back after a burst.
            if (read < buffer.Length / 4)
                _size = Math.Max(Options.EffectiveReceiveBufferSize, _size / 2);
            EngineBuffers.Return(buffer);
            _buffer = null;
        }
        return true;
    }

    /// <summary>After a hold: hands the protocol what it left; false when the loop ends.</summary>
    private bool RedeliverKept()
    {
        var buffer = _buffer!;
        if (!DeliverAndKeep(buffer, _filled))
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
    private bool DeliverAndKeep(byte[] buffer, int total)
    {
        // After a local Disconnect, data is read and dropped until the peer's end of stream.
        var filled = _engine.State == SessionState.Connected ? Deliver(buffer, total) : 0;
        if (filled < 0)
            return false;
        _filled = filled;
        if (filled == buffer.Length)
        {
            if (buffer.Length >= Options.EffectiveReceiveBufferLimit)
            {
                // Longer than the limit, and its protocol did not refuse it itself.
                _engine.Abort(DisconnectReason.ProtocolError);
                return false;
            }
            _buffer = Grow(buffer, filled);
        }
        return true;
    }

    /// <summary>After a hold with nothing kept here: the host hands over what it kept itself; false when the loop ends.</summary>
    private bool ResumeHost()
    {
        if (_engine.State != SessionState.Connected)
            return true;
        var previous = SendCork.Enter(_engine);
        try
        {
            return _engine.RunHook(HookKind.Other, 0, static (e, _) => e.Host.EngineResumed());
        }
        finally
        {
            SendCork.Exit(_engine, previous);
        }
    }

    /// <summary>The loop has ended: gives its buffer back, and closes or finishes what waited for it.</summary>
    private void End()
    {
        var buffer = _buffer;
        _buffer = null;
        _filled = 0;
        if (buffer != null)
            EngineBuffers.Return(buffer);
        bool close;
        lock (_engine)
        {
            _running = false;
            close = _engine.ShutdownDone;
        }
        if (close)
            _engine.CloseTransport();
        _engine.TryFinish();
    }

    /// <summary>Doubles the buffer (up to the limit), keeping its first <paramref name="keep"/> bytes.</summary>
    private byte[] Grow(byte[] buffer, int keep)
    {
        _size = Math.Min(buffer.Length * 2, Options.EffectiveReceiveBufferLimit);
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
    private int Deliver(byte[] buffer, int total)
    {
        var previous = SendCork.Enter(_engine);
        try
        {
            var offset = 0;
            while (offset < total && _engine.State == SessionState.Connected)
            {
                if (!_engine.RunHook(HookKind.Other, (pump: this, buffer, offset, count: total - offset), static (e, a) => a.pump._filled = e.Host.EngineReceived(a.buffer, a.offset, a.count)))
                    return -1;
                // The hook's count comes back through _filled, free while a read is delivered (the caller sets it after).
                var consumed = _filled;
                if (consumed <= 0)
                    break;
                offset += Math.Min(consumed, total - offset);
            }
            if (offset >= total || _engine.State != SessionState.Connected)
                return 0;
            if (offset > 0)
                System.Buffer.BlockCopy(buffer, offset, buffer, 0, total - offset);
            return total - offset;
        }
        finally
        {
            SendCork.Exit(_engine, previous);
        }
    }

    /// <summary>Blocking receive for hosts that do not run the loop (NetCoreServer's synchronous client pattern).</summary>
    public IoResult ReceiveBlocking(Span<byte> buffer)
    {
        lock (_engine)
        {
            if (_running || !_engine.Ready || _engine.State != SessionState.Connected || buffer.IsEmpty)
                return IoResult.Failed(SocketError.Success);
        }
        var result = _engine.Transport.Receive(buffer);
        TakeReceived(result);
        return result;
    }

    /// <summary>
    /// What every data receive does with its result: a failure ends the connection as an error, an end of stream
    /// disconnects (what we still owe the peer is delivered first), received bytes are counted. True when there are bytes.
    /// </summary>
    private bool TakeReceived(IoResult result)
    {
        if (!result.Succeeded)
        {
            _engine.OnTransportError(result.Error);
            return false;
        }
        if (result.Bytes == 0)
        {
            _engine.Disconnect(DisconnectReason.PeerClosed);
            return false;
        }
        Interlocked.Add(ref _bytesReceived, result.Bytes);
        _engine.Host.EngineCounted(result.Bytes, 0);
        return true;
    }

    /// <summary>The wait of a loop that must pause (unwritable, or held by the protocol), or null when it may read.</summary>
    private Task? PauseWait()
    {
        if (!(_engine.SenderIfAny?.Unwritable ?? false) && !Volatile.Read(ref _held))
            return null;
        lock (_engine)
        {
            if (_engine.Closed || (!_held && !ReadPaused))
                return null;
            return (_paused ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
        }
    }

    /// <summary>The paused loop's wait, taken to be released (writable again, or closed); under the lock.</summary>
    public TaskCompletionSource? TakePausedLocked()
    {
        var paused = _paused;
        _paused = null;
        return paused;
    }

    /// <summary>
    /// From inside the protocol's receive call: hand it nothing more, and read nothing more, until <see cref="Release"/>;
    /// what it left is handed to it again first (HTTP holds while its answers wait to be sent).
    /// </summary>
    public void Hold()
    {
        lock (_engine)
            Volatile.Write(ref _held, true);
        // The loop's own field: this runs on the loop, inside Deliver.
        _redeliver = true;
    }

    /// <summary>Ends a <see cref="Hold"/> (any thread): the loop hands over what it kept, then reads again.</summary>
    public void Release()
    {
        TaskCompletionSource? paused = null;
        lock (_engine)
        {
            if (!_held)
                return;
            Volatile.Write(ref _held, false);
            if (!ReadPaused)
                paused = TakePausedLocked();
        }
        paused?.TrySetResult();
    }

    /// <summary>The socket closed: a paused loop is released to end, and the idle watch stops.</summary>
    public void OnClosed()
    {
        TaskCompletionSource? paused;
        lock (_engine)
            paused = TakePausedLocked();
        if (Volatile.Read(ref _idleWatched))
            IdleSweep.Forget(_engine);
        paused?.TrySetResult();
    }

    /// <summary>Starts watching for idleness (with the loop: only received bytes count as activity).</summary>
    private void WatchIdle()
    {
        if (Options.IdleTimeout <= TimeSpan.Zero)
            return;
        lock (_engine)
        {
            if (_engine.Closed)
                return;
            _lastReceived = Environment.TickCount64;
            Volatile.Write(ref _idleWatched, true);
        }
        IdleSweep.Watch(_engine);
    }

    /// <summary>Called by the sweep: disconnects when nothing was received for the idle timeout.</summary>
    public void CheckIdle(long now)
    {
        var timeout = Options.IdleTimeout;
        if (_engine.Closed || timeout <= TimeSpan.Zero || !Volatile.Read(ref _idleWatched))
            return;
        // A session that stopped reading because its peer does not read what it is sent is not idle.
        if (ReadPaused || Volatile.Read(ref _held))
        {
            Volatile.Write(ref _lastReceived, now);
            return;
        }
        if (now - Volatile.Read(ref _lastReceived) < (long)timeout.TotalMilliseconds)
            return;
        // What was accepted is still delivered, but a silent peer's end of stream is not waited for.
        _engine.Disconnect(DisconnectReason.Timeout, linger: false);
    }
}
