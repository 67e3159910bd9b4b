using System.Threading;

namespace NetCoreServer.Udp;

/// <summary>
/// The statistics of one datagram socket: datagrams and bytes each way. Counted by the loops and by the blocking calls
/// (any thread), read from any thread; a datagram counts once it is on the wire or has been received in full.
/// </summary>
internal sealed class DatagramCounters
{
    private long _bytesSent;
    private long _bytesReceived;
    private long _datagramsSent;
    private long _datagramsReceived;

    public long BytesSent => Interlocked.Read(ref _bytesSent);

    public long BytesReceived => Interlocked.Read(ref _bytesReceived);

    public long DatagramsSent => Interlocked.Read(ref _datagramsSent);

    public long DatagramsReceived => Interlocked.Read(ref _datagramsReceived);

    /// <summary>One datagram of <paramref name="bytes"/> bytes went out.</summary>
    public void CountSent(int bytes)
    {
        Interlocked.Increment(ref _datagramsSent);
        Interlocked.Add(ref _bytesSent, bytes);
    }

    /// <summary>One datagram of <paramref name="bytes"/> bytes came in.</summary>
    public void CountReceived(int bytes)
    {
        Interlocked.Increment(ref _datagramsReceived);
        Interlocked.Add(ref _bytesReceived, bytes);
    }
}
