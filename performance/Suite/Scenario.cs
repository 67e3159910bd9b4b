namespace NetCoreServer.Performance.Suite;

/// <summary>One run: a benchmark over a protocol with some clients against one server, driven by one load generator.</summary>
internal sealed record Scenario(string Benchmark, ProtocolEntry Protocol, int Clients, Contender Server, bool CLoad)
{
    /// <summary>The group the run is compared within: the same benchmark, protocol, clients and load.</summary>
    public string Group => $"{Benchmark} {Protocol.Name} ×{Clients}";

    /// <summary>The server as the table names it.</summary>
    public string ServerName => Server switch
    {
        Contender.Ours => "NetCoreServer",
        Contender.Raw => Protocol.Transport == "ssl" ? "raw .NET SslStream" : "raw .NET Socket",
        Contender.Kestrel => "Kestrel",
        Contender.NodeWs => "node ws",
        _ => Benchmark == Suite.Benchmark.Echo ? "C echo_epoll" : "C mcast_epoll",
    };

    /// <summary>The load generator as the table names it.</summary>
    public string LoadName => Protocol.Has(ProtocolTraits.H2Load) ? H2LoadClient.Name : CLoad ? (Benchmark == Suite.Benchmark.Echo ? "echo_load" : "mcast_load") : (Benchmark == Suite.Benchmark.Echo ? "EchoClient" : "MulticastClient");

    /// <summary>For the progress display.</summary>
    public override string ToString() => $"{Group} · {ServerName} · {LoadName}";
}
