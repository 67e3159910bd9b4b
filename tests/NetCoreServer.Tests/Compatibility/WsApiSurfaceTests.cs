using System;
using System.Linq;
using NUnit.Framework;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>Member by member, our WebSocket types against NetCoreServer's (<see cref="NetCoreServerWsApi"/>).</summary>
[TestFixture]
public sealed class WsApiSurfaceTests
{
    public static readonly string[] Names = NetCoreServerWsApi.Types.Keys.ToArray();

    [TestCaseSource(nameof(Names))]
    public void TheTypeOffersEveryMemberOfNetCoreServersApiWithTheSameSignature(string name)
    {
        var missing = NetCoreServerWsApi.Missing(name);

        Assert.That(missing, Is.Empty, $"{name} lacks (or changed) these NetCoreServer members:\n  " + string.Join("\n  ", missing));
    }

    [TestCaseSource(nameof(Names))]
    public void TheTypeIsPublicInNetCoreServersNamespaceAndOfTheSameKind(string name)
    {
        var type = NetCoreServerHttpApi.Resolve(name);

        Assert.That(type, Is.Not.Null, $"NetCoreServer.{name} exists");
        Assert.That(type!.IsPublic, Is.True, $"{name} is public");
        if (name == "IWebSocket")
        {
            Assert.That(type.IsInterface, Is.True);
            Assert.That(type.GetMethods().All(m => !m.IsAbstract), Is.True, "every hook has a default body, so implementing the interface needs no member");
            return;
        }
        Assert.That(type.IsSealed || type.IsAbstract, Is.False, $"{name} can be subclassed and created");
        Assert.That(typeof(IWebSocket).IsAssignableFrom(type), Is.True, $"{name} implements IWebSocket");
        if (name != "WebSocket")
            Assert.That(typeof(IDisposable).IsAssignableFrom(type), Is.True, $"{name} is IDisposable");
    }

    [Test]
    public void TheWsAndWssClassesDeriveFromTheHttpClassesAsInNetCoreServer()
    {
        Assert.That(typeof(WsServer).BaseType, Is.EqualTo(typeof(HttpServer)));
        Assert.That(typeof(WssServer).BaseType, Is.EqualTo(typeof(HttpsServer)));
        Assert.That(typeof(WsSession).BaseType, Is.EqualTo(typeof(HttpSession)));
        Assert.That(typeof(WssSession).BaseType, Is.EqualTo(typeof(HttpsSession)));
        Assert.That(typeof(WsClient).BaseType, Is.EqualTo(typeof(HttpClient)));
        Assert.That(typeof(WssClient).BaseType, Is.EqualTo(typeof(HttpsClient)));
    }
}
