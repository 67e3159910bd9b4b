using System;
using System.Threading.Tasks;
using NetCoreServer.Buffers;
using NetCoreServer.Engine;
using NetCoreServer.Stress;
using NetCoreServer.Testing;
using NUnit.Framework;

namespace NetCoreServer.Tests.Reliability;

/// <summary>
/// The stress scenarios (performance/Stress.Scenarios, a library the Stress program runs at full size) at a small
/// size, asserting what each row of the program's table asserts except rate ratios: the same code, so the program and
/// the tests cannot drift apart. The descriptor flood, TLS
/// handshake flood, slow reader and fast writer have their own tests (ConnectionCapTests, Ssl/TlsTests,
/// BackpressureTests). Not parallel with other fixtures: the scenarios measure the whole process (descriptors, CPU
/// time, memory, the engine's buffer pool).
/// </summary>
[TestFixtureSource(nameof(Protocols))]
[NonParallelizable]
[Category(TestLeg.Isolated)]
public sealed class StressScenarioTests
{
    /// <summary>
    /// In the default leg every transport on the default engine (event loops on Linux) and tcp on the thread pool; the whole matrix in
    /// the long leg (build/test.sh --long). docs/guides/testing.md has the matrix.
    /// </summary>
    public static readonly object[] Protocols = TestLeg.IsLong
        ? new object[] { "tcp", "ssl", "uds", "tcp-pool", "ssl-pool", "uds-pool" }
        : new object[] { "tcp", "ssl", "uds", "tcp-pool" };

    private readonly StressProtocol _protocol;

    public StressScenarioTests(string protocol) => _protocol = protocol switch
    {
        "tcp" => StressProtocol.Tcp,
        "ssl" => StressProtocol.Ssl,
        "tcp-pool" => StressProtocol.TcpPool,
        "ssl-pool" => StressProtocol.SslPool,
        "uds-pool" => StressProtocol.UdsPool,
        _ => StressProtocol.Uds,
    };

    private async Task<StressResult> Run(string scenario, double scale)
    {
        var result = await Scenarios.Named(scenario)(_protocol, scale);
        TestContext.Out.WriteLine($"{scenario} over {_protocol}: {result.Figures}");
        Assert.That(result.Passed, Is.True, result.Figures);
        return result;
    }

    /// <summary>50 clients send while the server echoes and multicasts; Stop: no exception, each OnDisconnected once, no session, the endpoint free, no thread left busy.</summary>
    [Test]
    public Task StopUnderFullLoadEndsEverySessionOnceFreesTheEndpointAndLeavesNothingRunning() => Run("stop", 0.5);

    /// <summary>As above with Restart: afterwards a new client is served on the same endpoint.</summary>
    [Test]
    public Task RestartUnderFullLoadEndsEverySessionOnceAndServesANewClient() => Run("restart", 0.5);

    /// <summary>2,000 connect/send/disconnect cycles (400 over TLS): sessions, descriptors and the managed heap back to their start.</summary>
    [Test]
    public Task ChurnReturnsSessionsDescriptorsAndHeapToTheirStart() => Run("churn", 0.1);

    /// <summary>50 connections that send one byte and go silent, beside 10 normal clients: the slow ones are dropped at a 2 s idle timeout, the normal ones served throughout.</summary>
    [Test]
    public Task SlowlorisConnectionsAreDroppedAtTheIdleTimeoutWhileNormalClientsAreServed() => Run("slowloris", 0.1);

    /// <summary>5 clients each echo 20 MiB and leave: every byte comes back, then the engine's large-buffer pool is emptied.</summary>
    [Test]
    public async Task ABurstEchoesEveryByteAndThenGivesItsPooledBuffersBack()
    {
        await Run("burst", 0.1);
        // The first trim after the last rent may come early and keep them; one after the idle time (2 s) drops them.
        await Wait.Until(() => EngineBuffers.PooledBytes == 0, "a trim of the large pool after the idle time", TimeSpan.FromSeconds(30));
        Assert.That(EngineBuffers.PooledBytes, Is.EqualTo(0), "no large buffer kept after the burst");
    }

    /// <summary>
    /// A client that never reads beside 10 readers, multicast 16 MB/s for 6 s per case (raw and WebSocket, Skip and
    /// Disconnect): the process's memory stays flat, the stuck session holds at most its send limit.
    /// </summary>
    [Test]
    public Task AClientThatNeverReadsDoesNotGrowTheServerWhateverThePolicy() => Run("stuck reader", 0.1);

    /// <summary>Several threads call Send, SendAsync, Multicast and Disconnect on the same sessions for 2 s: no exception, no deadlock, nothing lost or reordered on the sessions that stayed open.</summary>
    [Test]
    public Task ConcurrentSendsMulticastsAndDisconnectsLoseAndReorderNothing() => Run("concurrency", 0.2);
}
