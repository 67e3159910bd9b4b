using System;
using System.Threading.Tasks;
using NetCoreServer.Engine;

namespace NetCoreServer.Performance.Benchmarks.InMemory;

/// <summary>
/// A peer engine connected to an echoing engine over an in-memory duplex transport, as the echo benchmarks use it: a
/// round is one write from the peer, done once the expected bytes have come back.
/// </summary>
internal sealed class EchoPair
{
    private static readonly TimeSpan s_timeout = TimeSpan.FromSeconds(10);

    /// <summary>Starts <paramref name="echo"/> and a peer that keeps the first <paramref name="keep"/> bytes of each round.</summary>
    public EchoPair(BenchmarkHost echo, int keep, bool inline)
    {
        var (peerEnd, echoEnd) = InMemoryDuplexTransport.CreatePair(inline);
        Echo = echo;
        Peer = new ReceivingHost(keep);
        echo.Start(echoEnd);
        Peer.Start(peerEnd);
    }

    public BenchmarkHost Echo { get; }

    public ReceivingHost Peer { get; }

    /// <summary>Sends <paramref name="wire"/> as one write; completes once <paramref name="expected"/> bytes have come back.</summary>
    public ValueTask Round(byte[] wire, long expected)
    {
        var echoed = Peer.Expect(expected);
        if (Peer.Engine.Enqueue(wire) != SendStatus.Accepted)
            throw new InvalidOperationException("the peer refused the write");
        return echoed;
    }

    /// <summary>One round from a setup, failing after 10 s.</summary>
    public void RoundOrFail(byte[] wire, long expected) => Round(wire, expected).AsTask().WaitAsync(s_timeout).GetAwaiter().GetResult();

    /// <summary>Disconnects both engines and waits until both have finished.</summary>
    public void Close()
    {
        Peer.Engine.Disconnect(DisconnectReason.Local);
        Task.WhenAll(Peer.Engine.Completion, Echo.Engine.Completion).WaitAsync(s_timeout).GetAwaiter().GetResult();
    }
}
