using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Transports.Tls;

/// <summary>
/// Counts a server's handshakes under way against a cap. At the cap, either the accept loop waits for room (new
/// connections wait in the kernel's backlog) or the oldest pending handshake is dropped to make room for the new one, so
/// peers that start handshakes and never finish cannot keep a good client out for longer than it takes the flood to
/// open cap more connections.
/// </summary>
internal sealed class HandshakeGate
{
    private readonly object _lock = new();
    private readonly LinkedList<Action> _pending = new();
    private int _max;
    private bool _dropOldest;
    private TaskCompletionSource? _room;

    public HandshakeGate(int max, bool dropOldest)
    {
        _max = max;
        _dropOldest = dropOldest;
    }

    /// <summary>Most handshakes under way; 0 or less means no cap.</summary>
    public int Max
    {
        get => Volatile.Read(ref _max);
        set
        {
            Volatile.Write(ref _max, value);
            Wake();
        }
    }

    /// <summary>At the cap, drop the oldest pending handshake (true) or let the accept loop wait (false).</summary>
    public bool DropOldest
    {
        get => Volatile.Read(ref _dropOldest);
        set
        {
            Volatile.Write(ref _dropOldest, value);
            Wake();
        }
    }

    /// <summary>Handshakes under way now.</summary>
    public int Pending
    {
        get
        {
            lock (_lock)
                return _pending.Count;
        }
    }

    /// <summary>
    /// A handshake starts (counted from accept: its connection holds the slot until it ends). <paramref name="drop"/>
    /// closes its connection if it becomes the oldest at the cap. Returns the token for <see cref="Exit"/>.
    /// </summary>
    public object Enter(Action drop)
    {
        Action? dropped = null;
        LinkedListNode<Action> node;
        lock (_lock)
        {
            var max = Volatile.Read(ref _max);
            if (Volatile.Read(ref _dropOldest) && max > 0 && _pending.Count >= max && _pending.First is { } oldest)
            {
                _pending.Remove(oldest);
                dropped = oldest.Value;
            }
            node = _pending.AddLast(drop);
        }
        dropped?.Invoke();
        return node;
    }

    /// <summary>A handshake ended (success, failure, timeout or close); once per <see cref="Enter"/>, with its token.</summary>
    public void Exit(object token)
    {
        var node = (LinkedListNode<Action>)token;
        TaskCompletionSource? room = null;
        lock (_lock)
        {
            if (node.List != null)
                _pending.Remove(node);
            if (_room != null && HasRoomLocked())
            {
                room = _room;
                _room = null;
            }
        }
        room?.TrySetResult();
    }

    /// <summary>Completes when another connection may be accepted (at once when there is room, or when dropping the oldest).</summary>
    public Task WaitForRoomAsync()
    {
        lock (_lock)
        {
            if (HasRoomLocked())
                return Task.CompletedTask;
            return (_room ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
        }
    }

    /// <summary>Releases a waiting accept loop (the cap or the policy changed, or the server stops).</summary>
    public void Wake()
    {
        TaskCompletionSource? room;
        lock (_lock)
        {
            room = _room;
            _room = null;
        }
        room?.TrySetResult();
    }

    private bool HasRoomLocked()
    {
        var max = Volatile.Read(ref _max);
        return max <= 0 || Volatile.Read(ref _dropOldest) || _pending.Count < max;
    }
}
