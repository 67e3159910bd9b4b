using System;
using System.Linq;
using System.Net;
using System.Reflection;
using NetCoreServer.Tests.Support;
using NUnit.Framework;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// Public members that promised what they did not do: TCP options a Unix-socket server ignored, an internal constant,
/// a socket typed non-null that is null before connecting, a base class nobody may derive from, and receive methods
/// a server session could never use. Each now means something or fails with a clear error.
/// </summary>
[TestFixture]
public sealed class SurfaceLeakTests
{
    private static readonly string[] s_tcpOnly =
    [
        nameof(TcpServer.OptionNoDelay), nameof(TcpServer.OptionKeepAlive), nameof(TcpServer.OptionDualMode),
        nameof(TcpServer.OptionTcpKeepAliveTime), nameof(TcpServer.OptionTcpKeepAliveInterval), nameof(TcpServer.OptionTcpKeepAliveRetryCount),
        nameof(TcpServer.OptionMaxSessionsPerAddress), nameof(TcpServer.OptionReuseAddress), nameof(TcpServer.OptionExclusiveAddressUse),
    ];

    private static object Sample(Type type) => type == typeof(bool) ? true : 1;

    [TestCaseSource(nameof(s_tcpOnly))]
    public void SettingATcpOnlyOptionOnAUnixSocketServerThrowsNotSupported(string option)
    {
        using var server = new UdsServer(UdsTestTransport.NewPath());
        var property = typeof(UdsServer).GetProperty(option)!;

        var thrown = Assert.Throws<TargetInvocationException>(() => property.SetValue(server, Sample(property.PropertyType)));

        Assert.That(thrown!.InnerException, Is.InstanceOf<NotSupportedException>());
        Assert.That(thrown.InnerException!.Message, Does.Contain(option).And.Contain("Unix"));
    }

    [TestCaseSource(nameof(s_tcpOnly))]
    public void ATcpOnlyOptionStillSetsOnATcpServer(string option)
    {
        using var server = new TcpServer(IPAddress.Loopback, 0);
        var property = typeof(TcpServer).GetProperty(option)!;

        property.SetValue(server, Sample(property.PropertyType));

        Assert.That(property.GetValue(server), Is.EqualTo(Sample(property.PropertyType)));
    }

    [Test]
    public void AUnixSocketServersAddressIsItsPathAndItsPortIsZero()
    {
        var path = UdsTestTransport.NewPath();
        using var server = new UdsServer(path);

        Assert.That(server.Address, Is.EqualTo(path));
        Assert.That(server.Port, Is.Zero);
    }

    [Test]
    public void AUnixSocketClientsAddressIsItsServersPathAndItsPortIsZero()
    {
        var path = UdsTestTransport.NewPath();
        using var client = new UdsClient(path);

        Assert.That(client.Address, Is.EqualTo(path));
        Assert.That(client.Port, Is.Zero);
    }

    [Test]
    public void FileCacheEntryOverheadIsNotPublic()
    {
        Assert.That(typeof(FileCache).GetField("EntryOverhead", BindingFlags.Public | BindingFlags.Static), Is.Null);
    }

    [Test]
    public void FileCacheDisposeNamesItsParameterAsNetCoreServerDoes()
    {
        var dispose = typeof(FileCache).GetMethod("Dispose", BindingFlags.Instance | BindingFlags.NonPublic, [typeof(bool)])!;

        Assert.That(dispose.GetParameters()[0].Name, Is.EqualTo("disposingManagedResources"));
    }

    [TestCase(typeof(StreamSession))]
    [TestCase(typeof(StreamClient))]
    public void SocketIsDeclaredNullableBecauseItIsNullBeforeConnecting(Type type)
    {
        var property = type.GetProperty("Socket")!;

        Assert.That(new NullabilityInfoContext().Create(property).ReadState, Is.EqualTo(NullabilityState.Nullable));
    }

    [Test]
    public void SocketIsNullBeforeASessionIsAccepted()
    {
        using var server = new TcpServer(IPAddress.Loopback, 0);
        using var session = new TcpSession(server);

        Assert.That(session.Socket, Is.Null);
    }

    [Test]
    public void TheNonGenericStreamServerCannotBeDerivedFromOutsideTheLibrary()
    {
        var constructors = typeof(StreamServer).GetConstructors(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic);

        Assert.That(typeof(StreamServer).IsAbstract, Is.True);
        Assert.That(constructors.Where(c => c.IsPublic || c.IsFamily || c.IsFamilyOrAssembly), Is.Empty, "no constructor a user's class could call");
    }

    [Test]
    public void ServerSessionReceiveTextAndReceiveBinaryFailClearly()
    {
        using var ws = new WsServer(IPAddress.Loopback, 0);
        using var session = new WsSession(ws);
        using var wss = new WssServer(SslTestTransport.DefaultServerContext(), IPAddress.Loopback, 0);
        using var secure = new WssSession(wss);

        Assert.That(() => session.ReceiveText(), Throws.InstanceOf<NotSupportedException>().With.Message.Contains("OnWsReceived"));
        Assert.That(() => session.ReceiveBinary(), Throws.InstanceOf<NotSupportedException>().With.Message.Contains("OnWsReceived"));
        Assert.That(() => secure.ReceiveText(), Throws.InstanceOf<NotSupportedException>());
        Assert.That(() => secure.ReceiveBinary(), Throws.InstanceOf<NotSupportedException>());
    }
}
