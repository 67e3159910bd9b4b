using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using NUnit.Framework;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// Our types against NetCoreServer's relationships (<see cref="NetCoreServerTypes"/>) and parameter names
/// (<see cref="NetCoreServerParameterNames"/>): a type is assignable to another of NetCoreServer's exactly when it is
/// there, implements the same public interfaces of it, and every member a NetCoreServer user can name an argument of
/// has the same parameter names.
/// </summary>
[TestFixture]
public sealed class TypeRelationshipTests
{
    private const BindingFlags Everything = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic;

    private static IEnumerable<string> Names() => NetCoreServerTypes.Relations.Keys;

    private static Type Ours(string name)
        => NetCoreServerHttpApi.Resolve(name) ?? throw new AssertionException($"NetCoreServer.{name} exists");

    [TestCaseSource(nameof(Names))]
    public void TheTypeIsAnyOtherNetCoreServerTypeExactlyWhenNetCoreServersIs(string name)
    {
        var type = Ours(name);
        var lineage = NetCoreServerTypes.Lineage(name).ToHashSet();
        var wrong = NetCoreServerTypes.Relations.Keys
            .Where(other => other != name && Ours(other).IsAssignableFrom(type) != lineage.Contains(other))
            .Select(other => lineage.Contains(other) ? $"{name} must be a {other}" : $"{name} must not be a {other}")
            .ToArray();

        Assert.That(wrong, Is.Empty, string.Join("\n", wrong));
    }

    [TestCaseSource(nameof(Names))]
    public void TheTypeImplementsNetCoreServersPublicInterfacesAsThere(string name)
    {
        var type = Ours(name);
        var expected = NetCoreServerTypes.Relations[name].Interfaces;
        foreach (var candidate in new[] { typeof(IDisposable), typeof(IWebSocket) })
        {
            Assert.That(candidate.IsAssignableFrom(type), Is.EqualTo(expected.Contains(candidate.Name)),
                $"{name} {(expected.Contains(candidate.Name) ? "implements" : "does not implement")} {candidate.Name}");
        }
    }

    [TestCaseSource(nameof(Names))]
    public void EveryMemberHasNetCoreServersParameterNames(string name)
    {
        var type = Ours(name);
        var wrong = new List<string>();
        var methods = type.GetMethods(Everything).Where(Reachable).Cast<MethodBase>().Concat(type.GetConstructors(Everything).Where(Reachable));
        foreach (var method in methods)
        {
            var key = $"{(method is ConstructorInfo ? ".ctor" : method.Name)}({string.Join(", ", method.GetParameters().Select(p => TypeName(p.ParameterType)))})";
            if (!NetCoreServerParameterNames.Names.TryGetValue(key, out var expected))
                continue;
            var actual = method.GetParameters().Select(p => p.Name).ToArray();
            if (!actual.SequenceEqual(expected))
                wrong.Add($"{key} in {method.DeclaringType!.Name}: ({string.Join(", ", actual)}), NetCoreServer's ({string.Join(", ", expected)})");
        }

        Assert.That(wrong, Is.Empty, $"{name}'s parameter names differ from NetCoreServer's:\n  " + string.Join("\n  ", wrong));
    }

    [Test]
    public void TheParameterNameCheckReadsTheSignaturesItIsGiven()
    {
        var send = typeof(TcpSession).GetMethod(nameof(TcpSession.Send), [typeof(byte[]), typeof(long), typeof(long)])!;

        Assert.That(TypeName(send.GetParameters()[0].ParameterType), Is.EqualTo("byte[]"));
        Assert.That(NetCoreServerParameterNames.Names, Does.ContainKey("Send(byte[], long, long)"));
        Assert.That(NetCoreServerParameterNames.Names, Does.ContainKey("SendRequest(HttpRequest, TimeSpan?)"));
    }

    [Test]
    public void ASwitchOverTcpAndSslClientsCompilesAndPicksTheRightCase()
    {
        StreamClient[] clients = [new TcpClient(System.Net.IPAddress.Loopback, 1), new SslClient(new SslContext(), System.Net.IPAddress.Loopback, 1)];
        var kinds = clients.Select(c => c switch
        {
            TcpClient => "tcp",
            SslClient => "ssl",
            _ => "other",
        }).ToArray();
        foreach (var client in clients)
            client.Dispose();

        Assert.That(kinds, Is.EqualTo(new[] { "tcp", "ssl" }));
    }

    private static bool Reachable(MethodBase method) => method.IsPublic || method.IsFamily || method.IsFamilyOrAssembly;

    private static string TypeName(Type type) => ApiSignatures.TypeName(type);
}
