using System.Net;
using System.Threading;
using System.Threading.Tasks;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>A plain TCP server on a free loopback port that says when a given number of sessions have connected.</summary>
internal sealed class SessionCountingServer(int expectedSessions) : TcpServer(IPAddress.Loopback, 0)
{
    private readonly TaskCompletionSource _allConnected = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private int _connected;

    /// <summary>Completes once <c>expectedSessions</c> sessions have raised OnConnected.</summary>
    public Task AllConnected => _allConnected.Task;

    protected override void OnConnected(TcpSession session)
    {
        if (Interlocked.Increment(ref _connected) == expectedSessions)
            _allConnected.TrySetResult();
    }
}
