using System;
using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// Member by member, our transport types against NetCoreServer's public API: same names, parameter and return types,
/// reachable from a user's assembly (public, or protected for hooks), virtual where NetCoreServer users override,
/// settable where they set. The compile-shaped classes next to this file catch drift at build time; this catches what a
/// friend assembly cannot see (a member that became internal or private protected still compiles here).
/// </summary>
[TestFixture]
public sealed class ApiSurfaceTests
{
    private static IEnumerable<Type> Types() => NetCoreServerApi.Types.Keys;

    [TestCaseSource(nameof(Types))]
    public void TheTypeOffersEveryMemberOfNetCoreServersApiWithTheSameSignature(Type type)
    {
        var missing = NetCoreServerApi.Missing(type);

        Assert.That(missing, Is.Empty, $"{type.Name} lacks (or changed) these NetCoreServer members:\n  " + string.Join("\n  ", missing));
    }

    [TestCaseSource(nameof(Types))]
    public void TheTypeIsPublicUnsealedAndConcreteAsInNetCoreServer(Type type)
    {
        Assert.That(type.IsPublic, Is.True, $"{type.Name} is public");
        Assert.That(type.IsSealed, Is.False, $"{type.Name} can be subclassed");
        Assert.That(type.IsAbstract, Is.False, $"{type.Name} can be created with new");
        Assert.That(type.Namespace, Is.EqualTo("NetCoreServer"), $"{type.Name} is in NetCoreServer's namespace");
        if (type != typeof(SslContext))
            Assert.That(typeof(IDisposable).IsAssignableFrom(type), Is.True, $"{type.Name} is IDisposable (using blocks)");
    }

    [Test]
    public void TheSignatureReaderSeesAccessibilityAsAnotherAssemblyWould()
    {
        var offered = ApiSignatures.VisibleFrom(typeof(TcpClient));

        Assert.That(offered, Does.Contain("protected virtual void OnReceived(byte[], long, long)"), "a protected hook");
        Assert.That(offered, Does.Contain("public virtual bool SendAsync(ReadOnlySpan<byte>)"), "a public virtual method");
        Assert.That(offered, Does.Contain("public int OptionTcpKeepAliveTime { get; set; }"), "a settable option");
        Assert.That(offered.Where(s => s.Contains("PrepareSocket") || s.Contains("ApplyOptions")), Is.Empty,
            "private protected members are invisible to user assemblies even though this friend assembly can reach them");
        Assert.That(offered.Where(s => s.Contains("Engine")), Is.Empty, "private protected properties are invisible too");
    }
}
