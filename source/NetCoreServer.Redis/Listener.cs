using System;
using System.Threading;
using System.Threading.Tasks;
using StackExchange.Redis;

namespace NetCoreServer.Redis;

/// <summary>
/// The receiving half of a backplane: the subscription to the channel, and each frame of another node judged and
/// delivered to this node's sessions (all, a group's members, one session). Nothing on the channel is trusted (Redis is
/// often shared): a frame is refused and counted when it is not one, fails the signature rules, or is refused by the
/// server's rule for relayed bytes (<see cref="StreamServer.MulticastRelayed"/>). The Redis client runs
/// <see cref="OnMessage"/> for one message at a time, in the channel's order, so the sequence tracker needs no lock;
/// counters are read from any thread.
/// </summary>
internal sealed class Listener : IDisposable
{
    private readonly IConnectionMultiplexer _redis;
    private readonly RedisChannel _channel;
    private readonly Guid _node;
    private readonly StreamServer _server;
    private readonly GroupMembership _groups;
    private readonly FrameSigner? _signer;
    private readonly bool _acceptUnsigned;
    private readonly long _maxFrameAge;
    private readonly TimeProvider _time;
    private readonly long[] _refused = new long[(int)BackplaneRefusal.Replayed + 1];
    private readonly SequenceTracker _sequences = new();
    private readonly CancellationTokenSource _stopping = new();
    private ChannelMessageQueue? _subscription;
    private long _received;
    private long _lost;
    private long _reconnects;

    public Listener(IConnectionMultiplexer redis, RedisChannel channel, Guid node, StreamServer server, GroupMembership groups, FrameSigner? signer, RedisBackplaneOptions options)
    {
        _signer = signer;
        _acceptUnsigned = options.AcceptUnsignedFrames;
        _maxFrameAge = (long)options.MaxFrameAge.TotalMilliseconds;
        _time = options.TimeProvider;
        _redis = redis;
        _channel = channel;
        _node = node;
        _server = server;
        _groups = groups;
        redis.ConnectionRestored += OnConnectionRestored;
    }

    public bool IsSubscribed => Volatile.Read(ref _subscription) != null;

    public long Received => Interlocked.Read(ref _received);

    public long Lost => Interlocked.Read(ref _lost);

    public long Reconnects => Interlocked.Read(ref _reconnects);

    public long Refused
    {
        get
        {
            long sum = 0;
            for (var i = 0; i < _refused.Length; i++)
                sum += Interlocked.Read(ref _refused[i]);
            return sum;
        }
    }

    public long RefusedFor(BackplaneRefusal reason)
        => (uint)reason < (uint)_refused.Length ? Interlocked.Read(ref _refused[(int)reason]) : 0;

    /// <summary>Why the last subscribe failed, for the exception of a failed attach.</summary>
    public Exception? LastError { get; private set; }

    /// <summary>
    /// Subscribes, retrying until <paramref name="timeout"/>: right after connecting the subscription connection may not
    /// be up yet, and with <c>BacklogPolicy.FailFast</c> the command then fails at once. False when Redis is not connected.
    /// </summary>
    public async Task<bool> SubscribeWithinAsync(TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (true)
        {
            if (await TrySubscribeAsync().ConfigureAwait(false))
                return true;
            if (DateTime.UtcNow >= deadline || !_redis.IsConnected)
                return false;
            await Task.Delay(50).ConfigureAwait(false);
        }
    }

    /// <summary>
    /// For a node started local-only: the client reconnects by itself, but a subscription that never succeeded is not
    /// its to restore, so this polls (every 250 ms) until it has subscribed or the listener stops.
    /// </summary>
    public async Task SubscribeUntilDoneAsync()
    {
        var token = _stopping.Token;
        try
        {
            while (!token.IsCancellationRequested)
            {
                await Task.Delay(250, token).ConfigureAwait(false);
                if (_redis.IsConnected && await TrySubscribeAsync().ConfigureAwait(false))
                {
                    if (token.IsCancellationRequested)
                        await UnsubscribeAsync().ConfigureAwait(false);
                    return;
                }
            }
        }
        catch (OperationCanceledException)
        {
            // Stopped meanwhile.
        }
    }

    /// <summary>Stops listening; Redis being gone is not an error (the subscription ends with the connection).</summary>
    public async Task UnsubscribeAsync()
    {
        _stopping.Cancel();
        _redis.ConnectionRestored -= OnConnectionRestored;
        var subscription = Interlocked.Exchange(ref _subscription, null);
        if (subscription == null)
            return;
        try
        {
            await subscription.UnsubscribeAsync().ConfigureAwait(false);
        }
        catch (Exception)
        {
            // Redis gone.
        }
    }

    public void Dispose() => _stopping.Dispose();

    private async Task<bool> TrySubscribeAsync()
    {
        try
        {
            var queue = await _redis.GetSubscriber().SubscribeAsync(_channel).ConfigureAwait(false);
            queue.OnMessage(OnMessage);
            Volatile.Write(ref _subscription, queue);
            return true;
        }
        catch (Exception e)
        {
            LastError = e;
            return false;
        }
    }

    private void OnConnectionRestored(object? sender, ConnectionFailedEventArgs e)
    {
        if (e.ConnectionType == ConnectionType.Subscription)
            Interlocked.Increment(ref _reconnects);
    }

    private void OnMessage(ChannelMessage message)
    {
        ReadOnlyMemory<byte> bytes = message.Message;
        if (!BackplaneFrame.TryRead(bytes, out var frame))
        {
            Refuse(BackplaneRefusal.Malformed);
            return;
        }
        if (frame.Node == _node)
            return;
        if (Judge(bytes.Span, frame) is { } refusal)
        {
            Refuse(refusal);
            return;
        }
        var lost = _sequences.Observe(frame.Node, frame.Sequence);
        if (lost != 0)
            Interlocked.Add(ref _lost, (long)lost);
        RelayedVerdict verdict;
        try
        {
            var payload = frame.Payload.Span;
            verdict = frame.Target switch
            {
                BackplaneTarget.All => _server.MulticastRelayed(frame.Kind, payload),
                BackplaneTarget.Group => _server.MulticastRelayed(frame.Kind, payload, _groups.Filter(frame.Group!)),
                _ => _server.SendRelayed(frame.Session, frame.Kind, payload),
            };
        }
        catch (Exception)
        {
            // A session's send may throw after a race with its close; the subscription must go on.
            return;
        }
        switch (verdict)
        {
            case RelayedVerdict.Accepted:
                Interlocked.Increment(ref _received);
                break;
            case RelayedVerdict.RefusedText:
                Refuse(BackplaneRefusal.InvalidText);
                break;
            case RelayedVerdict.RefusedFrames:
                Refuse(BackplaneRefusal.InvalidFrames);
                break;
            default:
                Refuse(BackplaneRefusal.Kind);
                break;
        }
    }

    /// <summary>The signature rules (only with a secret); null when the frame may go on to the server's rule.</summary>
    private BackplaneRefusal? Judge(ReadOnlySpan<byte> bytes, in BackplaneFrame frame)
    {
        if (_signer == null)
            return null;
        if (!frame.IsSigned)
            return _acceptUnsigned ? null : BackplaneRefusal.Unsigned;
        if (!_signer.Verify(bytes))
            return BackplaneRefusal.Signature;
        // Both ways: a frame from the future is as suspect as an old one, beyond the clocks' difference.
        if (Math.Abs(_time.GetUtcNow().ToUnixTimeMilliseconds() - frame.Time) > _maxFrameAge)
            return BackplaneRefusal.Replayed;
        return _sequences.IsAfterLast(frame.Node, frame.Sequence) ? null : BackplaneRefusal.Replayed;
    }

    private void Refuse(BackplaneRefusal reason) => Interlocked.Increment(ref _refused[(int)reason]);
}
