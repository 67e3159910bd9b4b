using System;
using System.Globalization;
using System.Linq;
using System.Threading.Tasks;
using NetCoreServer.Udp.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Udp.Tests;

/// <summary>
/// A steady echo allocates nothing per datagram. The allocation counter is process-wide, so the measurement runs in a
/// fresh process (the probe's "allocations" scenario): neither other tests nor state they leave behind can count.
/// </summary>
[TestFixture]
public sealed class UdpAllocationTests
{
    [Test]
    public async Task SteadyStateEchoAllocatesNothingPerDatagram()
    {
        var (exit, output, errors) = await ExternalTool.Run(ProbeProcess.DotnetHost, ["exec", ProbeProcess.Assembly, "allocations"],
            TimeSpan.FromSeconds(120));
        TestContext.Out.WriteLine(output);
        Assert.That(exit, Is.EqualTo(0), $"probe exit code; stderr: {errors}");

        var results = output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Where(line => line.StartsWith("RESULT ", StringComparison.Ordinal))
            .Select(line => line.Split(' '))
            .ToDictionary(parts => parts[1], parts => double.Parse(parts[2], CultureInfo.InvariantCulture));
        Assert.That(results.Keys, Is.EquivalentTo(new[] { "one-shot", "continuous" }), "both modes measured");
        // Per round trip: two SendAsync, two receives and four hooks. A per-datagram allocation would cost dozens of
        // bytes; what remains is the runtime's occasional timer or thread-pool bookkeeping.
        foreach (var (mode, bytes) in results)
            Assert.That(bytes, Is.LessThan(8), $"bytes allocated per round trip ({mode})");
    }
}
