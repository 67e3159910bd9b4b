using System.Collections.Generic;

namespace NetCoreServer.Performance.Suite;

/// <summary>Expands the command line's filters into the list of runs, in the order of the table.</summary>
internal static class ScenarioPlanner
{
    /// <summary>
    /// For every chosen protocol, benchmark and client count the protocol supports: our server, then the raw .NET
    /// baseline, the C reference, Kestrel and node ws where they serve it (unless <see cref="SuiteOptions.NoBaselines"/>).
    /// The C load clients replace ours where they speak the protocol when <see cref="SuiteOptions.CLoad"/>.
    /// </summary>
    public static List<Scenario> Plan(SuiteOptions options, CPeers peers, NodeWs node)
    {
        var plan = new List<Scenario>();
        foreach (var name in options.ChosenProtocols)
        {
            var protocol = ProtocolTable.Find(name)!;
            foreach (var benchmark in options.ChosenScenarios)
            {
                var echo = benchmark == Benchmark.Echo;
                if (!protocol.Has(echo ? ProtocolTraits.Echo : ProtocolTraits.Multicast))
                    continue;
                var cLoad = options.CLoad && (protocol.Has(ProtocolTraits.CLoad) || (!echo && protocol.Has(ProtocolTraits.CWsMulticastLoad)))
                    && peers[echo ? CPeers.EchoLoad : CPeers.MulticastLoad] is not null;
                foreach (var clients in options.ChosenClients)
                {
                    plan.Add(new Scenario(benchmark, protocol, clients, Contender.Ours, cLoad));
                    if (options.NoBaselines)
                        continue;
                    if (echo && protocol.Has(ProtocolTraits.RawEcho))
                        plan.Add(new Scenario(benchmark, protocol, clients, Contender.Raw, cLoad));
                    var reference = echo ? ProtocolTraits.CEcho : ProtocolTraits.CMulticast;
                    if (protocol.Has(reference) && peers[echo ? CPeers.EchoServer : CPeers.MulticastServer] is not null)
                        plan.Add(new Scenario(benchmark, protocol, clients, Contender.C, cLoad));
                    if (echo && protocol.Has(ProtocolTraits.KestrelEcho))
                        plan.Add(new Scenario(benchmark, protocol, clients, Contender.Kestrel, cLoad));
                    if (protocol.Has(ProtocolTraits.NodeWsServer) && node.Missing is null)
                        plan.Add(new Scenario(benchmark, protocol, clients, Contender.NodeWs, cLoad));
                }
            }
        }
        return plan;
    }
}
