using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace AsyncCost.Analyzers.CodeFixes.Internal;

/// <summary>Names for variables a fix introduces, unused anywhere in the enclosing member.</summary>
internal static class LocalNames
{
    public static string Unique(SyntaxNode near, string baseName)
    {
        var scope = near.FirstAncestorOrSelf<MemberDeclarationSyntax>() ?? near;
        var taken = new HashSet<string>(scope.DescendantTokens().Where(t => t.IsKind(SyntaxKind.IdentifierToken)).Select(t => t.ValueText));
        var name = baseName;
        for (var suffix = 2; taken.Contains(name); suffix++)
        {
            name = baseName + suffix;
        }
        return name;
    }
}
