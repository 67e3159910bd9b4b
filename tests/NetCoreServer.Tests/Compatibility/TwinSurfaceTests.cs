using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using NUnit.Framework;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// The TLS twins against their TCP models (docs/design/protocol-twins.md): every public or protected member a model
/// declares, constructors aside, is declared on its twin with the same modifiers and parameter names, the model's type
/// names read as the twin's, and the twin declares nothing else. NetCoreServer.Generators writes the twins' members;
/// this holds the result, so a member added to a model that does not reach its twin fails here.
/// </summary>
[TestFixture]
public sealed class TwinSurfaceTests
{
    private const BindingFlags Declared = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly;

    private static readonly (Type Model, Type Twin)[] s_pairs =
    [
        (typeof(WsSession), typeof(WssSession)),
        (typeof(WsClient), typeof(WssClient)),
        (typeof(WsServer), typeof(WssServer)),
        (typeof(HttpSession), typeof(HttpsSession)),
        (typeof(HttpClient), typeof(HttpsClient)),
        (typeof(HttpServer), typeof(HttpsServer)),
        (typeof(HttpClientEx), typeof(HttpsClientEx)),
    ];

    // The pairs and their bases: HttpServer.CreateSession returns a TcpSession where HttpsServer's returns an SslSession.
    private static readonly Dictionary<Type, Type> s_twinOf = new(s_pairs.Select(pair => KeyValuePair.Create(pair.Model, pair.Twin)))
    {
        [typeof(TcpSession)] = typeof(SslSession),
        [typeof(TcpServer)] = typeof(SslServer),
        [typeof(TcpClient)] = typeof(SslClient),
    };

    public static IEnumerable<TestCaseData> Pairs() =>
        s_pairs.Select(pair => new TestCaseData(pair.Model, pair.Twin).SetArgDisplayNames(pair.Model.Name, pair.Twin.Name));

    [TestCaseSource(nameof(Pairs))]
    public void TheTwinDeclaresEveryMemberOfItsModelWithTheSameParameterNamesAndNothingElse(Type model, Type twin)
    {
        var (missing, extra) = Compare(model, twin);

        Assert.That(missing, Is.Empty, $"{twin.Name} lacks these members of {model.Name}:\n  " + string.Join("\n  ", missing));
        Assert.That(extra, Is.Empty, $"{twin.Name} declares these members {model.Name} does not:\n  " + string.Join("\n  ", extra));
    }

    [TestCaseSource(nameof(Pairs))]
    public void TheTwinImplementsTheInterfacesOfItsModel(Type model, Type twin)
    {
        var interfaces = model.GetInterfaces().Except(model.BaseType!.GetInterfaces()).Select(Name).Order().ToArray();

        Assert.That(twin.GetInterfaces().Except(twin.BaseType!.GetInterfaces()).Select(Name).Order(), Is.EqualTo(interfaces));
    }

    [Test]
    public void TheComparisonFindsTheMembersAClassWithoutTheModelsMembersLacks()
    {
        // A control for the check itself: HttpsSession is no twin of WsSession, so it lacks the WebSocket members.
        var (missing, _) = Compare(typeof(WsSession), typeof(HttpsSession));

        Assert.That(missing, Does.Contain("public Boolean SendTextAsync(String text)"));
        Assert.That(missing, Does.Contain("public virtual Void OnWsReceived(Byte[] buffer, Int64 offset, Int64 size)"));
    }

    private static (string[] Missing, string[] Extra) Compare(Type model, Type twin)
    {
        var ofModel = Signatures(model).ToHashSet();
        var ofTwin = Signatures(twin).ToHashSet();
        return (ofModel.Except(ofTwin).Order().ToArray(), ofTwin.Except(ofModel).Order().ToArray());
    }

    // Methods, with property and event accessors among them, and fields: what a user who derives can see or override.
    private static IEnumerable<string> Signatures(Type type)
    {
        foreach (var method in type.GetMethods(Declared).Where(method => method.IsPublic || method.IsFamily || method.IsFamilyOrAssembly))
        {
            var parameters = method.GetParameters().Select(parameter =>
                $"{Name(parameter.ParameterType)} {parameter.Name}{(parameter.HasDefaultValue ? " = " + (parameter.DefaultValue ?? "null") : "")}");
            yield return $"{Modifiers(method)}{Name(method.ReturnType)} {method.Name}({string.Join(", ", parameters)})";
        }
        foreach (var field in type.GetFields(Declared).Where(field => field.IsPublic || field.IsFamily || field.IsFamilyOrAssembly))
            yield return $"field {Name(field.FieldType)} {field.Name}";
    }

    private static string Modifiers(MethodInfo method) =>
        (method.IsPublic ? "public " : "protected ")
        + (method.IsStatic ? "static " : "")
        + (method.GetBaseDefinition().DeclaringType != method.DeclaringType ? "override " : method.IsVirtual && !method.IsFinal ? "virtual " : "")
        + (method.IsVirtual && method.IsFinal && method.GetBaseDefinition().DeclaringType != method.DeclaringType ? "sealed " : "");

    // The model's types as the twin's, so that WsServer.CreateSession's TcpSession matches WssServer's SslSession.
    private static string Name(Type type)
    {
        if (s_twinOf.TryGetValue(type, out var twin))
            type = twin;
        if (type.IsByRef)
            return "ref " + Name(type.GetElementType()!);
        if (!type.IsGenericType)
            return type.Name;
        return type.Name[..type.Name.IndexOf('`')] + "<" + string.Join(", ", type.GetGenericArguments().Select(Name)) + ">";
    }
}
