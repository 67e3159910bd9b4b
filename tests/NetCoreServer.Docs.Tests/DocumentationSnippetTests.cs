using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using NUnit.Framework;

namespace NetCoreServer.Docs.Tests;

/// <summary>Every C# block of README.md and docs/guides/*.md compiles against the library.</summary>
[Parallelizable(ParallelScope.All)]
public class DocumentationSnippetTests
{
    private static readonly string s_root = FindRoot();

    /// <summary>The repository's root folder (where NetCoreServer.sln is).</summary>
    internal static string RepositoryRoot => s_root;

    public static IEnumerable<TestCaseData> Blocks()
    {
        var files = new[] { Path.Combine(s_root, "README.md") }
            .Concat(Directory.GetFiles(Path.Combine(s_root, "docs", "guides"), "*.md").Order(StringComparer.Ordinal));
        foreach (var file in files)
        {
            var name = Path.GetRelativePath(s_root, file).Replace('\\', '/');
            foreach (var block in CodeBlock.Read(file, name))
                yield return new TestCaseData(block).SetName($"CSharpBlockCompiles({block})");
        }
    }

    [TestCaseSource(nameof(Blocks))]
    public void CSharpBlockCompiles(CodeBlock block)
    {
        var diagnostics = SnippetCompiler.Compile(block);
        Assert.That(diagnostics, Is.Empty,
            $"the C# block at {block} does not compile:\n" + string.Join("\n", diagnostics));
    }

    [Test]
    public void TheReadmeAndEveryGuideHaveCSharpBlocks()
    {
        var counts = Blocks().Select(c => ((CodeBlock)c.Arguments[0]!).File).CountBy(f => f).ToDictionary();
        Assert.That(counts.GetValueOrDefault("README.md"), Is.GreaterThan(0), "C# blocks in README.md");
        Assert.That(counts.GetValueOrDefault("docs/guides/getting-started.md"), Is.GreaterThan(0),
            "C# blocks in docs/guides/getting-started.md");
    }

    [Test]
    public void ABlockWithACompileErrorIsReportedWithItsFileAndLine()
    {
        var block = new CodeBlock("broken.md", 10, false, "var server = new TcpServer(IPAddress.Any, 1111);\nserver.Strat();\n");
        var diagnostics = SnippetCompiler.Compile(block);
        Assert.That(diagnostics, Has.Some.StartsWith("broken.md:11: error CS1061"), string.Join("\n", diagnostics));
    }

    [Test]
    public void AMemberBlockIsWrappedInAClass()
    {
        var block = new CodeBlock("member.md", 5, true, "private int _count;\nvoid Count() => _count++;\n");
        Assert.That(SnippetCompiler.Compile(block), Is.Empty);
    }

    private static string FindRoot()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory != null; directory = directory.Parent)
            if (File.Exists(Path.Combine(directory.FullName, "NetCoreServer.sln")))
                return directory.FullName;
        throw new DirectoryNotFoundException("NetCoreServer.sln above " + AppContext.BaseDirectory);
    }
}
