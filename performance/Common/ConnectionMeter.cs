using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.Common;

/// <summary>
/// What one benchmark connection reports: whether it connected, the bytes it received, its errors and whether it was
/// lost before the end. A client's hooks call it; <see cref="ClientHost"/> reads it from another thread.
/// One meter per connection, so that connections do not contend on one shared counter.
/// </summary>
public sealed class ConnectionMeter
{
    private readonly TaskCompletionSource<bool> _connected = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _receivedBytes;
    private long _errors;
    private long _lostDatagrams;
    private int _lost;

    /// <summary>Completes with true when the connection was made, with false when the attempt failed.</summary>
    public Task<bool> Connection => _connected.Task;

    /// <summary>Bytes received so far.</summary>
    public long ReceivedBytes => Volatile.Read(ref _receivedBytes);

    /// <summary>Errors so far, plus one when the connection was lost after it was made.</summary>
    public long Errors => Volatile.Read(ref _errors) + Volatile.Read(ref _lost);

    /// <summary>Datagrams a udp client gave up waiting for so far.</summary>
    public long LostDatagrams => Volatile.Read(ref _lostDatagrams);

    /// <summary>Call when a udp client gives up waiting for <paramref name="count"/> datagrams.</summary>
    public void DatagramsLost(long count) => Interlocked.Add(ref _lostDatagrams, count);

    /// <summary>Call from the client's OnConnected.</summary>
    public void Connected() => _connected.TrySetResult(true);

    /// <summary>
    /// Call from the client's OnDisconnected: before a connection, it means the attempt failed; after one, the
    /// connection was lost, which counts as an error until <see cref="ClientHost"/> has taken its final reading.
    /// </summary>
    public void Disconnected()
    {
        // The connection task is complete whenever TrySetResult fails, so reading its result does not block.
        if (!_connected.TrySetResult(false) && _connected.Task.Result)
            Volatile.Write(ref _lost, 1);
    }

    /// <summary>Call when starting the connection failed at once.</summary>
    public void ConnectFailed() => _connected.TrySetResult(false);

    /// <summary>Call from the client's OnReceived.</summary>
    public void Received(long bytes) => Interlocked.Add(ref _receivedBytes, bytes);

    /// <summary>Call from the client's OnError.</summary>
    public void Error() => Interlocked.Increment(ref _errors);
}
