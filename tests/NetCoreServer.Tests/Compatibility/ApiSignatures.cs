using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Runtime.CompilerServices;

namespace NetCoreServer.Tests.Compatibility;

/// <summary>
/// Writes the members a subclass in another assembly can use as C#-like signatures, in the form the expected API in
/// <see cref="NetCoreServerApi"/> is written: "protected virtual void OnReceived(byte[], long, long)",
/// "public int OptionNoDelay { get; set; }", "public .ctor(IPAddress, int)", "public static string RemoveSuffix(this string,
/// char)", "public (bool, byte[]) Find(string)", "public byte this[long] { get; }", "public delegate bool
/// InsertHandler(FileCache, string, byte[], TimeSpan)" (a nested delegate). Reflection sees the real accessibility,
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
        [typeof(sbyte)] = "sbyte",
        [typeof(char)] = "char",
        [typeof(short)] = "short",
        [typeof(ushort)] = "ushort",
        [typeof(int)] = "int",
        [typeof(uint)] = "uint",
        [typeof(long)] = "long",
        [typeof(ulong)] = "ulong",
        [typeof(float)] = "float",
        [typeof(double)] = "double",
        [typeof(decimal)] = "decimal",
        [typeof(string)] = "string",
        [typeof(object)] = "object",
    };

    /// <summary>
    /// Every signature a user's subclass can rely on. A member is listed under each form that user code written
    /// against NetCoreServer would accept: an overridable method also as non-virtual (calling it compiles either way),
    /// a property with a public setter also as get-only, a property with a protected setter as "{ get; protected set; }"
    /// and as get-only.
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
            if (method.IsStatic)
                access += " static";
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
            if (getter!.IsStatic)
                access += " static";
            var index = property.GetIndexParameters();
            var name = index.Length == 0 ? property.Name : $"this[{string.Join(", ", index.Select(p => Name(p.ParameterType)))}]";
            var head = $"{access} {Name(property.PropertyType)} {name}";
            result.Add(head + " { get; }");
            var setterAccess = property.SetMethod is { } setter ? Access(setter) : null;
            if (setterAccess != null && access.StartsWith(setterAccess, StringComparison.Ordinal))
                result.Add(head + " { get; set; }");
            else if (setterAccess == "protected")
                result.Add(head + " { get; protected set; }");
        }
        foreach (var field in type.GetFields(Everything))
        {
            var access = field.IsPublic ? "public" : field.IsFamily || field.IsFamilyOrAssembly ? "protected" : null;
            if (access != null)
                result.Add($"{access}{(field.IsStatic ? " static" : "")} {Name(field.FieldType)} {field.Name}");
        }
        foreach (var nested in type.GetNestedTypes(BindingFlags.Public | BindingFlags.NonPublic))
        {
            var access = nested.IsNestedPublic ? "public" : nested.IsNestedFamily || nested.IsNestedFamORAssem ? "protected" : null;
            if (access != null && typeof(Delegate).IsAssignableFrom(nested) && nested.GetMethod("Invoke") is { } invoke)
                result.Add($"{access} delegate {Name(invoke.ReturnType)} {nested.Name}({Parameters(invoke)})");
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

    private static string Parameters(MethodBase method)
    {
        var extension = method.IsDefined(typeof(ExtensionAttribute), inherit: false);
        return string.Join(", ", method.GetParameters().Select((p, i) => (extension && i == 0 ? "this " : "") + Parameter(p)));
    }

    private static string Parameter(ParameterInfo parameter)
        => parameter.ParameterType.IsByRef && parameter.IsOut ? "out " + Name(parameter.ParameterType.GetElementType()!) : Name(parameter.ParameterType);

    /// <summary>A type as the signatures write it: "byte[]", "ReadOnlySpan<byte>", "TimeSpan?", "ref EndPoint".</summary>
    public static string TypeName(Type type) => Name(type);

    private static string Name(Type type)
    {
        if (type.IsByRef)
            return "ref " + Name(type.GetElementType()!);
        if (Nullable.GetUnderlyingType(type) is { } underlying)
            return Name(underlying) + "?";
        if (type.IsGenericType && type.FullName?.StartsWith("System.ValueTuple`", StringComparison.Ordinal) == true)
            return $"({string.Join(", ", type.GetGenericArguments().Select(Name))})";
        if (type.IsArray)
            return Name(type.GetElementType()!) + "[]";
        if (s_keywords.TryGetValue(type, out var keyword))
            return keyword;
        if (type.IsGenericType)
        {
            // A type nested in a generic one (List<T>.Enumerator) has no arity suffix of its own.
            var tick = type.Name.IndexOf('`');
            var name = tick < 0 ? type.Name : type.Name[..tick];
            return $"{name}<{string.Join(", ", type.GetGenericArguments().Select(Name))}>";
        }
        return type.Name;
    }
}
