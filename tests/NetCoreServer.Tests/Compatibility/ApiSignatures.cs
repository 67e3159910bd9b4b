using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// Writes the members a subclass in another assembly can use as C#-like signatures, in the form the expected API in
/// <see cref="NetCoreServerApi"/> is written: "protected virtual void OnReceived(byte[], long, long)",
/// "public int OptionNoDelay { get; set; }", "public .ctor(IPAddress, int)". Reflection sees the real accessibility,
/// which the compile-shaped classes cannot check on their own: this test project is a friend assembly of the library
/// (InternalsVisibleTo), so internal or private protected members would compile here but not in a user's project.
/// </summary>
internal static class ApiSignatures
{
    private const BindingFlags Everything = BindingFlags.Instance | BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic;

    private static readonly Dictionary<Type, string> s_keywords = new()
    {
        [typeof(void)] = "void",
        [typeof(bool)] = "bool",
        [typeof(byte)] = "byte",
        [typeof(char)] = "char",
        [typeof(int)] = "int",
        [typeof(long)] = "long",
        [typeof(string)] = "string",
        [typeof(object)] = "object",
    };

    /// <summary>
    /// Every signature a user's subclass can rely on. A member is listed under each form that user code written
    /// against NetCoreServer would accept: an overridable method also as non-virtual (calling it compiles either way),
    /// a property with a public setter also as get-only.
    /// </summary>
    public static HashSet<string> VisibleFrom(Type type)
    {
        var result = new HashSet<string>(StringComparer.Ordinal);
        foreach (var constructor in type.GetConstructors(Everything))
        {
            var access = Access(constructor);
            if (access != null)
                result.Add($"{access} .ctor({Parameters(constructor)})");
        }
        foreach (var method in type.GetMethods(Everything).Where(m => !m.IsSpecialName))
        {
            var access = Access(method);
            if (access == null)
                continue;
            var signature = $"{Name(method.ReturnType)} {method.Name}({Parameters(method)})";
            result.Add($"{access} {signature}");
            if (method.IsVirtual && !method.IsFinal)
                result.Add($"{access} virtual {signature}");
        }
        foreach (var property in type.GetProperties(Everything))
        {
            var getter = property.GetMethod;
            var access = getter == null ? null : Access(getter);
            if (access == null)
                continue;
            var head = $"{access} {Name(property.PropertyType)} {property.Name}";
            result.Add(head + " { get; }");
            if (property.SetMethod is { } setter && Access(setter) == access)
                result.Add(head + " { get; set; }");
        }
        foreach (var field in type.GetFields(Everything))
        {
            var access = field.IsPublic ? "public" : field.IsFamily || field.IsFamilyOrAssembly ? "protected" : null;
            if (access != null)
                result.Add($"{access} {Name(field.FieldType)} {field.Name}");
        }
        return result;
    }

    /// <summary>"public" or "protected" when code in another assembly (a subclass) can reach the member; otherwise null.</summary>
    private static string? Access(MethodBase method)
    {
        if (method.IsPublic)
            return "public";
        if (method.IsFamily || method.IsFamilyOrAssembly)
            return "protected";
        return null;
    }

    private static string Parameters(MethodBase method) => string.Join(", ", method.GetParameters().Select(p => Name(p.ParameterType)));

    private static string Name(Type type)
    {
        if (type.IsByRef)
            return "ref " + Name(type.GetElementType()!);
        if (type.IsArray)
            return Name(type.GetElementType()!) + "[]";
        if (s_keywords.TryGetValue(type, out var keyword))
            return keyword;
        if (type.IsGenericType)
        {
            var name = type.Name[..type.Name.IndexOf('`')];
            return $"{name}<{string.Join(", ", type.GetGenericArguments().Select(Name))}>";
        }
        return type.Name;
    }
}
