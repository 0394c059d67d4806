using System.Collections.Immutable;
using System.Composition;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace AsyncCost.Analyzers.CodeFixes;

/// <summary>AC0002: <c>Task&lt;T&gt;</c> becomes <c>ValueTask&lt;T&gt;</c>. The rule only fires when every caller awaits once, so callers compile unchanged.</summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(AC0002PreferValueTaskCodeFix)), Shared]
public sealed class AC0002PreferValueTaskCodeFix() : RuleCodeFix(RuleIds.PreferValueTask)
{
    private const string Title = "Return ValueTask<T>";

    protected override PlannedFix? PlanFix(Document document, SyntaxNode root, Diagnostic diagnostic) =>
        root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: false) is TypeSyntax returnType && WithValueTask(returnType) is { } replacement
            ? PlannedFix.Replace(Title, document, root, returnType, replacement)
            : null;

    private static TypeSyntax? WithValueTask(TypeSyntax returnType) => returnType switch
    {
        GenericNameSyntax { Identifier.ValueText: "Task" } generic => generic.WithIdentifier(SyntaxFactory.Identifier("ValueTask").WithTriviaFrom(generic.Identifier)),
        QualifiedNameSyntax { Right: GenericNameSyntax { Identifier.ValueText: "Task" } right } qualified =>
            qualified.WithRight(right.WithIdentifier(SyntaxFactory.Identifier("ValueTask").WithTriviaFrom(right.Identifier))),
        AliasQualifiedNameSyntax { Name: GenericNameSyntax { Identifier.ValueText: "Task" } name } aliased =>
            aliased.WithName(name.WithIdentifier(SyntaxFactory.Identifier("ValueTask").WithTriviaFrom(name.Identifier))),
        _ => null,
    };
}
