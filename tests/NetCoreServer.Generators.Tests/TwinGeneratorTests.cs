using System;
using System.IO;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using NetCoreServer.Generators;
using NUnit.Framework;

namespace NetCoreServer.Generators.Tests;

/// <summary>
/// The twin generator on a small model and twin, as the library uses it: a member added to the model appears on the
/// twin, with the pairs' names and the bases' names rewritten, its docs an inheritdoc of the model's.
/// </summary>
[TestFixture]
public sealed class TwinGeneratorTests
{
    private const string Bases = """
        namespace NetCoreServer;

        /// <summary>The model's base.</summary>
        public class PlainBase
        {
            /// <summary>A hook.</summary>
            /// <param name="value">A value.</param>
            /// <returns>The value.</returns>
            public virtual int Hook(int value) => value;
        }

        /// <summary>The twin's base.</summary>
        public class SecureBase
        {
            /// <summary>A hook.</summary>
            /// <param name="value">A value.</param>
            /// <returns>One more.</returns>
            public virtual int Hook(int value) => value + 1;
        }

        """;

    private const string Twin = """
        namespace NetCoreServer;

        /// <summary>The twin.</summary>
        [TwinOf(typeof(PlainThing))]
        public partial class SecureThing : SecureBase
        {
            /// <summary>Its own constructor.</summary>
            /// <param name="name">A name.</param>
            public SecureThing(string name) => _name = name;
        }

        """;

    private static readonly Lazy<MetadataReference[]> s_runtime = new(() =>
        ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!).Split(Path.PathSeparator)
            .Select(path => (MetadataReference)MetadataReference.CreateFromFile(path))
            .ToArray());

    [Test]
    public void AMemberAddedToTheModelAppearsOnTheTwinWithTheTwinsTypeNames()
    {
        var (compilation, _) = Run(Model("""
                /// <summary>Added to the model only.</summary>
                /// <param name="other">Another.</param>
                /// <returns>The other.</returns>
                public PlainThing Added(PlainThing other) => other;
            """));

        var added = compilation.GetTypeByMetadataName("NetCoreServer.SecureThing")!.GetMembers("Added").Single();

        Assert.That(added.ToDisplayString(), Is.EqualTo("NetCoreServer.SecureThing.Added(NetCoreServer.SecureThing)"));
        Assert.That(((IMethodSymbol)added).Parameters.Single().Name, Is.EqualTo("other"));
    }

    [Test]
    public void AnOverrideOnTheModelOverridesTheTwinsBaseAndItsBaseCallsReachIt()
    {
        var (compilation, _) = Run(Model("""
                /// <summary>Adds two.</summary>
                /// <param name="value">A value.</param>
                /// <returns>More.</returns>
                public override int Hook(int value) => base.Hook(value) + 2;

                /// <summary>Takes the base.</summary>
                /// <param name="other">Another.</param>
                public void Take(PlainBase other) { }
            """));

        var twin = compilation.GetTypeByMetadataName("NetCoreServer.SecureThing")!;
        var hook = (IMethodSymbol)twin.GetMembers("Hook").Single();
        var take = (IMethodSymbol)twin.GetMembers("Take").Single();

        Assert.That(hook.OverriddenMethod?.ContainingType.Name, Is.EqualTo("SecureBase"));
        Assert.That(take.Parameters.Single().Type.Name, Is.EqualTo("SecureBase"));
    }

    [Test]
    public void TheTwinKeepsItsOwnConstructorsAndGetsTheModelsFieldsAndPrivateMembers()
    {
        var (compilation, _) = Run(Model("""
                private int Secret() => _name.Length;
            """));

        var twin = compilation.GetTypeByMetadataName("NetCoreServer.SecureThing")!;

        Assert.That(twin.InstanceConstructors.Select(constructor => constructor.Parameters.Single().Type.Name), Is.EqualTo(new[] { "String" }));
        Assert.That(twin.GetMembers("_name"), Has.Length.EqualTo(1));
        Assert.That(twin.GetMembers("Secret"), Has.Length.EqualTo(1));
    }

    [Test]
    public void AVisibleMemberOfTheTwinInheritsTheModelsDocsAndAHiddenOneHasNone()
    {
        var (_, generated) = Run(Model("""
                /// <summary>Visible.</summary>
                public void Shown() { }

                private void Hidden() { }
            """));

        Assert.That(generated, Does.Contain("    /// <inheritdoc cref=\"M:NetCoreServer.PlainThing.Shown\"/>\n    public void Shown() { }"));
        Assert.That(generated, Does.Contain("\n\n    private void Hidden() { }"));
    }

    private static string Model(string members) => $$"""
        namespace NetCoreServer;

        /// <summary>The model.</summary>
        public class PlainThing : PlainBase
        {
            private readonly string _name;

            /// <summary>Its own constructor.</summary>
            /// <param name="name">A name.</param>
            /// <param name="count">A count the twin does not take.</param>
            public PlainThing(string name, int count) => _name = name;

        {{members}}
        }

        """;

    // Compiles the bases, the twin and the model with the generator and fails on any error or warning.
    private static (Compilation Compilation, string Generated) Run(string model)
    {
        var options = new CSharpParseOptions(LanguageVersion.Latest, DocumentationMode.Diagnose);
        var compilation = CSharpCompilation.Create(
            "Twins",
            new[] { Bases, Twin, model }.Select(text => CSharpSyntaxTree.ParseText(text, options)),
            s_runtime.Value,
            new CSharpCompilationOptions(OutputKind.DynamicallyLinkedLibrary, nullableContextOptions: NullableContextOptions.Enable));
        CSharpGeneratorDriver.Create(new TwinGenerator().AsSourceGenerator())
            .WithUpdatedParseOptions(options)
            .RunGeneratorsAndUpdateCompilation(compilation, out var output, out var generatorErrors);

        var problems = generatorErrors.Concat(output.GetDiagnostics())
            .Where(diagnostic => diagnostic.Severity >= DiagnosticSeverity.Warning)
            .Select(diagnostic => diagnostic.ToString())
            .ToArray();
        Assert.That(problems, Is.Empty, string.Join("\n", problems));
        var generated = output.SyntaxTrees.Single(tree => tree.FilePath.EndsWith("SecureThing.Twin.g.cs", StringComparison.Ordinal));
        return (output, generated.ToString());
    }
}
