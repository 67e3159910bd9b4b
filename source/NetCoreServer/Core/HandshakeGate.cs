using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Core;

/// <summary>
/// Counts a server's handshakes under way against a cap. While the cap is reached the accept loop waits for room, so
/// new connections wait in the kernel's backlog (and beyond the backlog the kernel refuses them) instead of each
/// costing a handshake's memory and CPU.
/// </summary>
internal sealed class HandshakeGate
{
    private readonly object _lock = new();
    private int _pending;
    private int _max;
    private TaskCompletionSource? _room;

    public HandshakeGate(int max) => _max = max;

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

    /// <summary>Handshakes under way now.</summary>
    public int Pending => Volatile.Read(ref _pending);

    /// <summary>A handshake starts (counted from accept: its connection holds the slot until it ends).</summary>
    public void Enter()
    {
        lock (_lock)
            _pending++;
    }

    /// <summary>A handshake ended (success, failure, timeout or close); called once per <see cref="Enter"/>.</summary>
    public void Exit()
    {
        TaskCompletionSource? room = null;
        lock (_lock)
        {
            _pending--;
            if (_room != null && HasRoomLocked())
            {
                room = _room;
                _room = null;
            }
        }
        room?.TrySetResult();
    }

    /// <summary>Completes when another handshake may start (at once when there is room).</summary>
    public Task WaitForRoomAsync()
    {
        lock (_lock)
        {
            if (HasRoomLocked())
                return Task.CompletedTask;
            return (_room ??= new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).Task;
        }
    }

    /// <summary>Releases a waiting accept loop (the cap changed, or the server stops).</summary>
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
        return max <= 0 || _pending < max;
    }
}
