using ArchUnitNET.Domain;
using ArchUnitNET.Loader;
using ArchUnitNET.NUnit;
using NetCoreServer.Transports;
using NUnit.Framework;
using static ArchUnitNET.Fluent.ArchRuleDefinition;
using LoadedArchitecture = ArchUnitNET.Domain.Architecture;

namespace NetCoreServer.Tests.Architecture;

/// <summary>
/// The layers of the library, stated by namespace (docs/architecture.md), bottom to top: Buffers, Transports, Engine,
/// then Protocols, Connections and Udp side by side, and the public facade (the root <c>NetCoreServer</c> namespace)
/// over all of them. A reference the wrong way, in a signature or in a method body, fails one of these.
/// </summary>
[TestFixture]
public sealed class LayerTests
{
    private static readonly LoadedArchitecture s_library = new ArchLoader().LoadAssemblies(typeof(TcpServer).Assembly).Build();

    private static readonly IObjectProvider<IType> s_buffers = Types().That().ResideInNamespaceOrBelow("NetCoreServer.Buffers").As("types in NetCoreServer.Buffers");
    private static readonly IObjectProvider<IType> s_transports = Types().That().ResideInNamespaceOrBelow("NetCoreServer.Transports").As("types in NetCoreServer.Transports");
    private static readonly IObjectProvider<IType> s_engine = Types().That().ResideInNamespaceOrBelow("NetCoreServer.Engine").As("types in NetCoreServer.Engine");
    private static readonly IObjectProvider<IType> s_connections = Types().That().ResideInNamespaceOrBelow("NetCoreServer.Connections").As("types in NetCoreServer.Connections");
    private static readonly IObjectProvider<IType> s_protocols = Types().That().ResideInNamespaceOrBelow("NetCoreServer.Protocols").As("types in NetCoreServer.Protocols");
    private static readonly IObjectProvider<IType> s_udp = Types().That().ResideInNamespaceOrBelow("NetCoreServer.Udp").As("types in NetCoreServer.Udp");
    private static readonly IObjectProvider<IType> s_facade = Types().That().ResideInNamespace("NetCoreServer").As("types of the public facade (NetCoreServer)");

    // The transport contract: the interface, what its members take and return, its error classification, and which
    // thread is a loop's (ThreadRole, the one place the event-loop handoff changes).
    private static readonly System.Type[] s_transportContract =
        [typeof(IStreamTransport), typeof(IReceiveCompletion), typeof(IoResult), typeof(ITlsInfo), typeof(SocketErrors), typeof(ThreadRole)];

    private static readonly IObjectProvider<IType> s_concreteTransports = Types().That().ResideInNamespaceOrBelow("NetCoreServer.Transports")
        .And().AreNot(s_transportContract).As("transport types outside its contract (IStreamTransport and the types in its signature)");

    // The one facade type the engine may name: a public enum it decides (why a connection ended) that compatibility
    // keeps in the root namespace; a mirror enum in the engine would need a cast at every crossing.
    private static readonly IObjectProvider<IType> s_facadeButDisconnectReason = Types().That().ResideInNamespace("NetCoreServer")
        .And().AreNot(typeof(DisconnectReason)).As("types of the public facade (NetCoreServer) other than DisconnectReason");

    // The instruments tag connections with why they ended or were refused: the same public enums.
    private static readonly IObjectProvider<IType> s_facadeButReasons = Types().That().ResideInNamespace("NetCoreServer")
        .And().AreNot(typeof(DisconnectReason), typeof(RefusalReason)).As("types of the public facade (NetCoreServer) other than DisconnectReason and RefusalReason");

    private static readonly IObjectProvider<IType> s_connectionClasses = Types().That().AreAssignableTo(typeof(StreamConnection))
        .Or().AreAssignableTo(typeof(StreamServer)).As("connection classes (StreamConnection, StreamServer and what derives from them)");

    [Test]
    public void BuffersDependOnNoOtherLayer()
        => Types().That().Are(s_buffers).Should().NotDependOnAny(s_transports).AndShould().NotDependOnAny(s_engine)
            .AndShould().NotDependOnAny(s_connections).AndShould().NotDependOnAny(s_protocols).AndShould().NotDependOnAny(s_udp)
            .AndShould().NotDependOnAny(s_facade)
            .Because("the pool is what every layer reads into and writes from").Check(s_library);

    [Test]
    public void DiagnosticsDependOnNoOtherLayer()
        => Types().That().ResideInNamespaceOrBelow("NetCoreServer.Diagnostics").Should().NotDependOnAny(s_buffers)
            .AndShould().NotDependOnAny(s_transports).AndShould().NotDependOnAny(s_engine).AndShould().NotDependOnAny(s_connections)
            .AndShould().NotDependOnAny(s_protocols).AndShould().NotDependOnAny(s_udp).AndShould().NotDependOnAny(s_facadeButReasons)
            .Because("the instruments read a server's counters through IServerReadings, so every layer may publish to them").Check(s_library);

    [Test]
    public void TransportsDependOnNothingAboveThem()
        => Types().That().Are(s_transports).Should().NotDependOnAny(s_engine).AndShould().NotDependOnAny(s_connections)
            .AndShould().NotDependOnAny(s_protocols).AndShould().NotDependOnAny(s_udp).AndShould().NotDependOnAny(s_facade)
            .Because("a transport supplies I/O only: receive, send a batch, shut down, classify an error").Check(s_library);

    [Test]
    public void EngineKnowsTransportsOnlyThroughTheirContract()
        => Types().That().Are(s_engine).Should().NotDependOnAny(s_concreteTransports)
            .Because("one engine serves every stream transport, chosen by TransportFactory above it").Check(s_library);

    [Test]
    public void EngineKnowsNothingOfConnectionsProtocolsOrTheFacade()
        => Types().That().Are(s_engine).Should().NotDependOnAny(s_connections).AndShould().NotDependOnAny(s_protocols)
            .AndShould().NotDependOnAny(s_udp).AndShould().NotDependOnAny(s_facadeButDisconnectReason)
            .Because("the engine reaches its connection only through IStreamSessionHost, so its tests run it without one").Check(s_library);

    [Test]
    public void ProtocolsSeeAConnectionOnlyThroughInterfacesOfTheirOwn()
        => Types().That().Are(s_protocols).Should().NotDependOnAny(s_connections).AndShould().NotDependOnAny(s_connectionClasses)
            .AndShould().NotDependOnAny(s_udp)
            .Because("a protocol is a component the facade composes onto any connection (IProtocolConnection, IProtocolSession, IProtocolClient)")
            .Check(s_library);

    [Test]
    public void ConnectionsKnowNoProtocol()
        => Types().That().Are(s_connections).Should().NotDependOnAny(s_protocols).AndShould().NotDependOnAny(s_udp)
            .Because("the accept loop, the session registry and the TLS settings serve every protocol alike; the facade composes them")
            .Check(s_library);

    [Test]
    public void UdpKnowsNoStreamConnectionOrProtocol()
        => Types().That().Are(s_udp).Should().NotDependOnAny(s_connections).AndShould().NotDependOnAny(s_protocols)
            .AndShould().NotDependOnAny(s_facade)
            .Because("datagrams have an engine of their own beside the stream one, under their public classes").Check(s_library);

    [Test]
    public void OnlyTheFacadeNamesThePartsOfFileCache()
        => Types().That().DoNotResideInNamespace("NetCoreServer").And().DoNotResideInNamespaceOrBelow("NetCoreServer.Compat.Caching")
            .Should().NotDependOnAny(Types().That().ResideInNamespaceOrBelow("NetCoreServer.Compat.Caching").As("types in NetCoreServer.Compat.Caching"))
            .Because("the entry store, served files and path sandbox are FileCache's insides, behind its public API").Check(s_library);

    [Test]
    public void EveryNamespaceOfTheLibraryIsALayerTheRulesName()
        => Types().That().ResideInNamespaceMatching(@"^NetCoreServer(\..+)?$")
            .Should().ResideInNamespaceMatching(@"^NetCoreServer(\.(Buffers|Diagnostics|Transports(\.Tls)?|Engine|Connections|Udp|Compat\.Caching|Protocols(\.(Framing|Http|Http2|WebSockets))?))?$")
            .Because("a namespace no rule names would escape them all: give it a layer here and in docs/architecture.md").Check(s_library);
}
