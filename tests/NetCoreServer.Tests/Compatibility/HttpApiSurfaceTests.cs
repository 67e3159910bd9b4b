using System;
using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// Member by member, our HTTP types and helpers against NetCoreServer's (<see cref="NetCoreServerHttpApi"/>), for
/// the types that exist. Types are found by name, so the lists can wait in <see cref="NetCoreServerHttpApi"/> for
/// types still being written.
/// </summary>
[TestFixture]
public sealed class HttpApiSurfaceTests
{
    /// <summary>
    /// The types checked now. Buffer, HttpRequest, HttpResponse, HttpServer, HttpSession, HttpClient, HttpClientEx,
    /// HttpsServer, HttpsSession, HttpsClient and HttpsClientEx join this list as each lands (their expected members
    /// are already in <see cref="NetCoreServerHttpApi.Types"/>).
    /// </summary>
    public static readonly string[] Landed = NetCoreServerHttpApi.Types.Keys.ToArray();

    private static IEnumerable<string> Pending() => NetCoreServerHttpApi.Types.Keys.Except(Landed);

    [TestCaseSource(nameof(Landed))]
    public void TheTypeOffersEveryMemberOfNetCoreServersApiWithTheSameSignature(string name)
    {
        var missing = NetCoreServerHttpApi.Missing(name);

        Assert.That(missing, Is.Empty, $"{name} lacks (or changed) these NetCoreServer members:\n  " + string.Join("\n  ", missing));
    }

    [TestCaseSource(nameof(Landed))]
    public void TheTypeIsPublicInNetCoreServersNamespaceAndOfTheSameKind(string name)
    {
        var type = NetCoreServerHttpApi.Resolve(name);

        Assert.That(type, Is.Not.Null, $"NetCoreServer.{name} exists");
        Assert.That(type!.IsPublic, Is.True, $"{name} is public");
        if (name == "StringExtensions")
        {
            Assert.That(type.IsAbstract && type.IsSealed, Is.True, "StringExtensions is a static class (extension methods need one)");
            return;
        }
        Assert.That(type.IsSealed, Is.False, $"{name} can be subclassed");
        Assert.That(type.IsAbstract, Is.False, $"{name} can be created with new");
        // NetCoreServer's message and buffer types hold no resources; everything with a socket or a lock is disposable.
        if (name is not ("Utilities" or "Buffer" or "HttpRequest" or "HttpResponse"))
            Assert.That(typeof(IDisposable).IsAssignableFrom(type), Is.True, $"{name} is IDisposable (using blocks)");
    }

    [Test]
    public void EveryPendingListNamesATypeThatIsNotYetCheckedHere()
    {
        // A pending type that exists is checked by hand here until it joins Landed: its list must be sound for it.
        foreach (var name in Pending())
        {
            Assert.That(NetCoreServerHttpApi.Types[name], Is.Not.Empty, $"{name} has an expected member list");
            Assert.That(NetCoreServerHttpApi.Types[name].Distinct().Count(), Is.EqualTo(NetCoreServerHttpApi.Types[name].Length),
                $"{name}'s list names each member once");
        }
    }

    [Test]
    public void TheSignatureReaderWritesStaticExtensionTupleNullableIndexerAndDelegateMembersAsTheListsDo()
    {
        Assert.That(ApiSignatures.VisibleFrom(typeof(StringExtensions)), Does.Contain("public static string RemoveSuffix(this string, char)"));
        Assert.That(ApiSignatures.VisibleFrom(typeof(Utilities)), Does.Contain("public static string GenerateDataSize(double)"));
        var cache = ApiSignatures.VisibleFrom(typeof(FileCache));
        Assert.That(cache, Does.Contain("public (bool, byte[]) Find(string)"), "a value tuple");
        Assert.That(cache, Does.Contain("public bool TryGetValue(string, out byte[])"), "an out parameter");
        Assert.That(cache, Does.Contain("public delegate bool InsertHandler(FileCache, string, byte[], TimeSpan)"), "a nested delegate");
        Assert.That(ApiSignatures.VisibleFrom(typeof(List<int>)), Does.Contain("public int this[int] { get; set; }"), "an indexer");
        Assert.That(ApiSignatures.VisibleFrom(typeof(NullableProbe)), Does.Contain("public void Wait(TimeSpan?)"), "a nullable value type");
        Assert.That(ApiSignatures.VisibleFrom(typeof(NullableProbe)), Does.Contain("public string Name { get; protected set; }"), "a protected setter");
    }

    /// <summary>Members whose shapes no library type here has yet.</summary>
    public class NullableProbe
    {
        /// <summary>A public getter with a protected setter.</summary>
        public string Name { get; protected set; } = "";

        /// <summary>A nullable value type parameter.</summary>
        public void Wait(TimeSpan? timeout) => _ = timeout;
    }
}
