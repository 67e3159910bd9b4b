using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>Completes a round once every receiver of the group has reported its bytes.</summary>
internal sealed class ReceiverGroup
{
    private readonly AsyncSignal _signal;
    private int _remaining;

    /// <param name="inline">See <see cref="AsyncSignal(bool)"/>.</param>
    public ReceiverGroup(bool inline = false) => _signal = new AsyncSignal(inline);

    /// <summary>Arms a round for <paramref name="receivers"/> receivers; call before sending.</summary>
    public ValueTask BeginRound(int receivers)
    {
        _signal.Reset();
        Volatile.Write(ref _remaining, receivers);
        return _signal.WaitAsync();
    }

    /// <summary>One receiver has everything of this round.</summary>
    public void OneDone()
    {
        if (Interlocked.Decrement(ref _remaining) == 0)
            _signal.Set();
    }
}
