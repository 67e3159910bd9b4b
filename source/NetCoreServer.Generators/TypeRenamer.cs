using System.Collections.Generic;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;

namespace NetCoreServer.Generators;

/// <summary>
/// Rewrites every identifier that names a model class into its twin's name (WsServer into WssServer). By token, not by
/// symbol: the twin is compiled afterwards, so a rename that should not have happened is a compile error, not a silent bug.
/// </summary>
internal sealed class TypeRenamer : CSharpSyntaxRewriter
{
    private readonly Dictionary<string, string> _twinOf;

    /// <summary>Creates a renamer for the pairs given as model name to twin name.</summary>
    public TypeRenamer(Dictionary<string, string> twinOf) => _twinOf = twinOf;

    /// <inheritdoc/>
    public override SyntaxToken VisitToken(SyntaxToken token) =>
        token.IsKind(SyntaxKind.IdentifierToken) && _twinOf.TryGetValue(token.ValueText, out var twin)
            ? SyntaxFactory.Identifier(token.LeadingTrivia, twin, token.TrailingTrivia)
            : token;
}
