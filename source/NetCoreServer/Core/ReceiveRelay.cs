using System;
using System.Net.Sockets;
using System.Runtime.CompilerServices;
using System.Threading.Tasks;

namespace NetCoreServer.Core;

/// <summary>
/// <see cref="IStreamTransport.TryReceive"/> for a transport whose receive is a <see cref="ValueTask{TResult}"/> (TLS,
/// the engine tests' in-memory one): hands the completion of a pending one to the <see cref="IReceiveCompletion"/>.
/// One instance serves one transport's receives, one at a time, and allocates nothing per receive.
/// </summary>
internal sealed class ReceiveRelay
{
    private readonly Action _resume;
    private ConfiguredValueTaskAwaitable<IoResult>.ConfiguredValueTaskAwaiter _awaiter;
    private IReceiveCompletion? _completion;

    public ReceiveRelay() => _resume = Resume;

    /// <summary>True with <paramref name="result"/> when <paramref name="receive"/> has completed; otherwise false, and <paramref name="completion"/> is told later.</summary>
    public bool TryReceive(ValueTask<IoResult> receive, IReceiveCompletion completion, out IoResult result)
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
