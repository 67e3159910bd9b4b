using System;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

namespace NetCoreServer.Transports;

/// <summary>
/// <see cref="IStreamTransport.TryReceive"/> for a transport whose receive is a <see cref="ValueTask{TResult}"/> (TLS,
/// the engine tests' in-memory ones): hands the completion of a pending one to the <see cref="IReceiveCompletion"/>.
/// One instance serves one transport's receives, one at a time, and allocates nothing per receive.
/// </summary>
internal sealed class ReceiveRelay
{
    private readonly Action _resume;
    private ConfiguredValueTaskAwaitable<IoResult>.ConfiguredValueTaskAwaiter _awaiter;
    private IReceiveCompletion? _completion;

    public ReceiveRelay() => _resume = Resume;

    /// <summary>
    /// <see cref="IStreamTransport.TryReceive"/> over <paramref name="receive"/>: true with <paramref name="result"/>
    /// when it has completed; otherwise false, and <paramref name="completion"/> is told later through the transport's
    /// <paramref name="relay"/>, made on its first pending receive (one that always completes at once needs none).
    /// </summary>
    public static bool Relay(ref ReceiveRelay? relay, ValueTask<IoResult> receive, IReceiveCompletion completion, out IoResult result)
    {
        if (receive.IsCompleted)
        {
            result = ResultOf(receive.ConfigureAwait(false).GetAwaiter());
            return true;
        }
        return (relay ??= new ReceiveRelay()).TryReceive(receive, completion, out result);
    }

    /// <summary>True with <paramref name="result"/> when <paramref name="receive"/> has completed; otherwise false, and <paramref name="completion"/> is told later.</summary>
    private bool TryReceive(ValueTask<IoResult> receive, IReceiveCompletion completion, out IoResult result)
    {
        var awaiter = receive.ConfigureAwait(false).GetAwaiter();
        if (awaiter.IsCompleted)
        {
            result = ResultOf(awaiter);
            return true;
        }
        _awaiter = awaiter;
        _completion = completion;
        awaiter.UnsafeOnCompleted(_resume);
        result = default;
        return false;
    }

    private void Resume()
    {
        var awaiter = _awaiter;
        var completion = _completion!;
        _awaiter = default;
        _completion = null;
        completion.ReceiveCompleted(ResultOf(awaiter));
    }

    /// <summary>The result of a completed receive. Transports report errors as values; an exception would be a bug in one, and still ends the connection as an error.</summary>
    public static IoResult ResultOf(ConfiguredValueTaskAwaitable<IoResult>.ConfiguredValueTaskAwaiter awaiter)
    {
        try
        {
            return awaiter.GetResult();
        }
        catch (Exception)
        {
            return IoResult.Failed(SocketError.SocketError);
        }
    }
}
