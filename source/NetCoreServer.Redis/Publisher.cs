using System;
using System.Buffers;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using StackExchange.Redis;

namespace NetCoreServer.Redis;

/// <summary>
/// The bounded queue of frames waiting for Redis, and the one loop that publishes them in order. Offer never waits:
/// a frame over the limits is dropped and counted. Lock: <c>_lock</c> orders the sequence numbers with the queue, so
/// frames leave in the order they were numbered; no Redis call and no user code under it.
/// </summary>
internal sealed class Publisher
{
    // Publishes in flight at once: pipelined on the one connection (order kept), then awaited before their buffers return.
    private const int Batch = 256;

    private readonly object _lock = new();
    private readonly Channel<Outgoing> _queue = Channel.CreateUnbounded<Outgoing>(new UnboundedChannelOptions { SingleReader = true });
    private readonly IConnectionMultiplexer _redis;
    private readonly RedisChannel _channel;
    private readonly int _maxMessages;
    private readonly long _maxBytes;
    private readonly FrameSigner? _signer;
    private readonly TimeProvider _time;
    private readonly Task _loop;
    private ulong _sequence;
    private int _queuedMessages;
    private long _queuedBytes;
    private long _published;
    private long _dropped;
    private bool _completed;
    private bool _abandoned;

    // signer: signs each frame (Rent left room for its trailer) just before it is published; null for none.
    public Publisher(IConnectionMultiplexer redis, RedisChannel channel, int maxMessages, long maxBytes, FrameSigner? signer, TimeProvider time)
    {
        _signer = signer is { Signs: true } ? signer : null;
        _time = time;
        _redis = redis;
        _channel = channel;
        _maxMessages = maxMessages;
        _maxBytes = maxBytes;
        _loop = Task.Run(RunAsync);
    }

    public long Published => Interlocked.Read(ref _published);

    public long Dropped => Interlocked.Read(ref _dropped);

    public int QueuedMessages => Volatile.Read(ref _queuedMessages);

    /// <summary>Drops a message that is not queued at all (too large, backplane closing); it takes a number all the same.</summary>
    public void Drop()
    {
        lock (_lock)
            ++_sequence;
        Interlocked.Increment(ref _dropped);
    }

    /// <summary>Numbers and queues a frame (taking its rented buffer), or drops it when the queue is full; never waits.</summary>
    public bool Offer(byte[] frame, int length)
    {
        lock (_lock)
        {
            // A dropped frame still takes a number, so the other nodes see the gap and count it as lost.
            var sequence = ++_sequence;
            if (!_completed && _queuedMessages < _maxMessages && _queuedBytes + length <= _maxBytes)
            {
                BackplaneFrame.SetSequence(frame, sequence);
                _queuedMessages++;
                _queuedBytes += length;
                _queue.Writer.TryWrite(new Outgoing(frame, length));
                return true;
            }
        }
        ArrayPool<byte>.Shared.Return(frame);
        Interlocked.Increment(ref _dropped);
        return false;
    }

    /// <summary>Stops taking frames and waits up to <paramref name="timeout"/> for the queued ones to be published; the rest are dropped.</summary>
    public async Task DrainAsync(TimeSpan timeout)
    {
        lock (_lock)
        {
            _completed = true;
            _queue.Writer.TryComplete();
        }
        await Task.WhenAny(_loop, Task.Delay(timeout)).ConfigureAwait(false);
        // Past the timeout: what is left is dropped by the loop.
        Volatile.Write(ref _abandoned, true);
    }

    private async Task RunAsync()
    {
        var subscriber = _redis.GetSubscriber();
        var batch = new List<(Outgoing Frame, Task<long> Publish)>(Batch);
        var reader = _queue.Reader;
        while (await reader.WaitToReadAsync().ConfigureAwait(false))
        {
            while (batch.Count < Batch && reader.TryRead(out var frame))
            {
                lock (_lock)
                {
                    _queuedMessages--;
                    _queuedBytes -= frame.Length;
                }
                // Disconnected: fail now rather than queue inside the client, whose backlog has no byte limit.
                if (Volatile.Read(ref _abandoned) || !_redis.IsConnected)
                {
                    Drop(frame);
                    continue;
                }
                Task<long> publish;
                try
                {
                    // Signed here, after its number was set, and timed as it leaves (receivers bound its age).
                    _signer?.Sign(frame.Buffer.AsSpan(0, frame.Length), _time.GetUtcNow().ToUnixTimeMilliseconds());
                    publish = subscriber.PublishAsync(_channel, frame.Memory);
                }
                catch (Exception)
                {
                    Drop(frame);
                    continue;
                }
                batch.Add((frame, publish));
            }
            foreach (var (frame, publish) in batch)
            {
                try
                {
                    await publish.ConfigureAwait(false);
                    Interlocked.Increment(ref _published);
                }
                catch (Exception)
                {
                    Interlocked.Increment(ref _dropped);
                }
                ArrayPool<byte>.Shared.Return(frame.Buffer);
            }
            batch.Clear();
        }
    }

    private void Drop(Outgoing frame)
    {
        ArrayPool<byte>.Shared.Return(frame.Buffer);
        Interlocked.Increment(ref _dropped);
    }

    private readonly record struct Outgoing(byte[] Buffer, int Length)
    {
        public ReadOnlyMemory<byte> Memory => Buffer.AsMemory(0, Length);
    }
}
