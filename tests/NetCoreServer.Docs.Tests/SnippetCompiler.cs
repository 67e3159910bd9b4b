using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace NetCoreServer.Docs.Tests;

/// <summary>
/// Compiles documentation snippets in-process against the runtime's assemblies, NetCoreServer and
/// NetCoreServer.Certificates. The convention for blocks is in this project's README.md.
/// </summary>
public static class SnippetCompiler
{
    /// <summary>The usings every snippet gets, as if the project had them as global usings.</summary>
    public const string Prelude = """
        global using System;
        global using System.Collections.Generic;
        global using System.IO;
        global using System.Linq;
        global using System.Net;
        global using System.Security.Authentication;
        global using System.Security.Cryptography.X509Certificates;
        global using System.Text;
        global using System.Threading;
        global using System.Threading.Tasks;
        global using NetCoreServer;
        """;

    private static readonly Lazy<MetadataReference[]> s_references = new(LoadReferences);

    /// <summary>Compiles one block and returns its errors and warnings, their lines counted in the Markdown file.</summary>
    public static IReadOnlyList<string> Compile(CodeBlock block)
    {
        var code = block.IsMember ? "class Fragment\n{\n" + block.Code + "}\n" : block.Code;
        var lineShift = block.Line - 1 - (block.IsMember ? 2 : 0);
        var options = new CSharpParseOptions(LanguageVersion.Latest);
        var tree = CSharpSyntaxTree.ParseText(code, options, path: block.File);
        var prelude = CSharpSyntaxTree.ParseText(Prelude, options, path: "prelude.cs");
        // Top-level statements need an executable; blocks of declarations compile as a library.
        var kind = tree.GetRoot().DescendantNodes().OfType<GlobalStatementSyntax>().Any()
            ? OutputKind.ConsoleApplication
            : OutputKind.DynamicallyLinkedLibrary;
        var compilation = CSharpCompilation.Create(
            "Snippet",
            [prelude, tree],
            s_references.Value,
            new CSharpCompilationOptions(kind, nullableContextOptions: NullableContextOptions.Enable)
                .WithSpecificDiagnosticOptions([new("CS8019", ReportDiagnostic.Suppress)]));   // unneeded using
        using var output = new MemoryStream();
        var result = compilation.Emit(output);
        return result.Diagnostics
            .Where(d => d.Severity is DiagnosticSeverity.Error or DiagnosticSeverity.Warning)
            .Select(d =>
            {
                var line = d.Location.GetLineSpan().StartLinePosition.Line + 1 + lineShift;
                return $"{block.File}:{line}: {d.Severity.ToString().ToLowerInvariant()} {d.Id}: {d.GetMessage()}";
            })
            .ToList();
    }

    private static MetadataReference[] LoadReferences()
    {
        var paths = ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator).ToList();
        paths.Add(typeof(TcpServer).Assembly.Location);
        paths.Add(typeof(NetCoreServer.Certificates.DevelopmentCertificates).Assembly.Location);
        // The scale-out guide's snippets use the Redis backplane; its overloads name StackExchange.Redis types.
        paths.Add(typeof(NetCoreServer.Redis.RedisBackplane).Assembly.Location);
        paths.Add(typeof(StackExchange.Redis.IConnectionMultiplexer).Assembly.Location);
        // The hosting guide's snippets: the package and the generic host's assemblies (copied beside this one).
        paths.Add(typeof(NetCoreServer.Hosting.SessionServerOptions).Assembly.Location);
        paths.AddRange(Directory.GetFiles(AppContext.BaseDirectory, "Microsoft.Extensions.*.dll"));

        // The testing guide's example is an NUnit test on a FakeTimeProvider.
        paths.Add(typeof(NUnit.Framework.TestAttribute).Assembly.Location);
        paths.Add(typeof(Microsoft.Extensions.Time.Testing.FakeTimeProvider).Assembly.Location);
        return paths
            .Where(p => p.Length > 0)
            .DistinctBy(Path.GetFileName, StringComparer.OrdinalIgnoreCase)
            .Select(p => (MetadataReference)MetadataReference.CreateFromFile(p))
            .ToArray();
    }
}
