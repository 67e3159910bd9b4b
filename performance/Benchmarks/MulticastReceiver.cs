using System.Net;
using System.Threading;

namespace NetCoreServer.Performance.Benchmarks;

/// <summary>A client that tells its <see cref="ReceiverGroup"/> once it has received everything expected of a round.</summary>
internal sealed class MulticastReceiver(IPEndPoint endpoint, ReceiverGroup group) : TcpClient(endpoint)
{
    private long _outstanding;

    /// <summary>Expects <paramref name="bytes"/> more bytes; call before they are sent.</summary>
    public void Expect(long bytes) => Volatile.Write(ref _outstanding, bytes);

    protected override void OnReceived(byte[] buffer, long offset, long size)
    {
        if (Interlocked.Add(ref _outstanding, -size) == 0)
            group.OneDone();
    }
}
