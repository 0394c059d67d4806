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
public sealed class AC0002PreferValueTaskCodeFix : CodeFixProvider
{
    private const string Title = "Return ValueTask<T>";

    public override ImmutableArray<string> FixableDiagnosticIds { get; } = ImmutableArray.Create(RuleIds.PreferValueTask);

    public override FixAllProvider GetFixAllProvider() => WellKnownFixAllProviders.BatchFixer;

    public override async Task RegisterCodeFixesAsync(CodeFixContext context)
    {
        var root = await context.Document.GetSyntaxRootAsync(context.CancellationToken).ConfigureAwait(false);
        foreach (var diagnostic in context.Diagnostics)
        {
            if (root?.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: false) is TypeSyntax returnType
                && WithValueTask(returnType) is { } replacement)
            {
                context.RegisterCodeFix(
                    CodeAction.Create(Title, _ => Task.FromResult(context.Document.WithSyntaxRoot(root.ReplaceNode(returnType, replacement))), equivalenceKey: Title),
                    diagnostic);
            }
        }
    }

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
