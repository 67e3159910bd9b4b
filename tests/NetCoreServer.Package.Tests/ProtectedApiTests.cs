using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.Loader;
using NUnit.Framework;

namespace NetCoreServer.Package.Tests;

/// <summary>
/// The public API analyzer does not track protected members of a public class whose constructors are all internal
/// (StreamConnection, StreamServer&lt;TSession&gt;...: its RS0022), yet they are the hooks every subclass of TcpSession
/// or TcpServer overrides. This test lists them from the packed assembly and compares the list with
/// source/NetCoreServer/PublicAPI.Protected.txt; NETCORESERVER_UPDATE_PROTECTED_API=1 rewrites the file instead.
/// </summary>
[TestFixture]
public sealed class ProtectedApiTests
{
    [Test]
    public void ProtectedMembersTheAnalyzerCannotSeeMatchPublicApiProtectedTxt()
    {
        var file = Path.Combine(SourceTree.Root()!, "source", "NetCoreServer", "PublicAPI.Protected.txt");
        var assemblyPath = Path.Combine(Packages.Root, "build", "library", "bin", "Release", "net10.0", "NetCoreServer.dll");
        var context = new AssemblyLoadContext("protected-api", isCollectible: true);
        List<string> actual;
        try
        {
            actual = ProtectedApi(context.LoadFromAssemblyPath(assemblyPath)).Order(StringComparer.Ordinal).ToList();
        }
        finally
        {
            context.Unload();
        }

        if (Environment.GetEnvironmentVariable("NETCORESERVER_UPDATE_PROTECTED_API") == "1")
        {
            File.WriteAllLines(file, actual);
            Assert.Pass($"wrote {actual.Count} lines to {file}");
        }
        var expected = File.Exists(file) ? File.ReadAllLines(file).Where(line => line.Length > 0).ToList() : [];
        var added = actual.Except(expected).ToList();
        var removed = expected.Except(actual).ToList();
        Assert.That(added.Count + removed.Count, Is.Zero,
            "protected API changed; if on purpose, run this test with NETCORESERVER_UPDATE_PROTECTED_API=1 and commit "
            + $"{file}.\nadded:\n  {string.Join("\n  ", added)}\nremoved:\n  {string.Join("\n  ", removed)}");
    }

    private const BindingFlags Declared = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public
        | BindingFlags.NonPublic | BindingFlags.DeclaredOnly;

    // Protected members declared on exported classes that code outside the assembly cannot derive from directly.
    private static IEnumerable<string> ProtectedApi(Assembly assembly)
    {
        foreach (var type in assembly.GetExportedTypes().Where(type => type.IsClass && !type.IsSealed && !Inheritable(type)))
        {
            foreach (var member in type.GetMembers(Declared))
            {
                switch (member)
                {
                    case MethodInfo method when Protected(method) && !method.IsSpecialName:
                        yield return $"{Modifiers(method)}{Name(type)}.{method.Name}{Generic(method)}({Parameters(method)}) -> {Name(method.ReturnType)}";
                        break;
                    case PropertyInfo property:
                        foreach (var (accessor, kind) in new[] { (property.GetMethod, "get"), (property.SetMethod, "set") })
                        {
                            if (accessor is not null && Protected(accessor))
                                yield return $"{Modifiers(accessor)}{Name(type)}.{property.Name}.{kind} -> {Name(property.PropertyType)}";
                        }
                        break;
                    case EventInfo @event when @event.AddMethod is { } add && Protected(add):
                        yield return $"{Modifiers(add)}{Name(type)}.{@event.Name} -> {Name(@event.EventHandlerType!)}";
                        break;
                    case FieldInfo field when field.IsFamily || field.IsFamilyOrAssembly:
                        yield return $"{(field.IsStatic ? "static " : "")}{Name(type)}.{field.Name} -> {Name(field.FieldType)}";
                        break;
                }
            }
        }
    }

    private static bool Inheritable(Type type)
        => type.GetConstructors(Declared).Any(constructor => constructor.IsPublic || constructor.IsFamily || constructor.IsFamilyOrAssembly);

    private static bool Protected(MethodBase method) => method.IsFamily || method.IsFamilyOrAssembly;

    private static string Modifiers(MethodInfo method)
    {
        if (method.IsStatic)
            return "static ";
        if (method.IsAbstract)
            return "abstract ";
        if (!method.IsVirtual || method.IsFinal)
            return "";
        return method.GetBaseDefinition().DeclaringType == method.DeclaringType ? "virtual " : "override ";
    }

    private static string Generic(MethodInfo method)
        => method.IsGenericMethodDefinition ? $"<{string.Join(", ", method.GetGenericArguments().Select(Name))}>" : "";

    private static string Parameters(MethodInfo method)
        => string.Join(", ", method.GetParameters().Select(parameter => $"{Name(parameter.ParameterType)} {parameter.Name}"));

    private static string Name(Type type)
    {
        if (type.IsGenericParameter)
            return type.Name;
        if (type.IsByRef)
            return "ref " + Name(type.GetElementType()!);
        if (type.IsArray)
            return Name(type.GetElementType()!) + "[" + new string(',', type.GetArrayRank() - 1) + "]";
        var name = (type.IsGenericType ? type.GetGenericTypeDefinition().FullName! : type.FullName ?? type.Name).Replace('+', '.');
        if (!type.IsGenericType)
            return name;
        return name[..name.IndexOf('`')] + "<" + string.Join(", ", type.GetGenericArguments().Select(Name)) + ">";
    }
}
