using System.Collections.Immutable;
using System.Composition;
using System.Threading.Tasks;
using AsyncCost.Analyzers.Internal;
using AsyncCost.Analyzers.Rules;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace AsyncCost.Analyzers.CodeFixes;

/// <summary>
/// AC0006 in an async function: <c>t.Result</c> → <c>await t</c>, <c>t.Wait()</c> → <c>await t</c>,
/// <c>t.ConfigureAwait(false).GetAwaiter().GetResult()</c> → <c>await t.ConfigureAwait(false)</c>,
/// <c>Task.WaitAll(a, b)</c> → <c>await Task.WhenAll(a, b)</c>. Synchronous callers need their own signature
/// changed first, which is a design decision, so they get no automatic fix.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(AC0006BlockingOnTaskCodeFix)), Shared]
public sealed class AC0006BlockingOnTaskCodeFix : CodeFixProvider
{
    private const string Title = "Await the task instead of blocking on it";

    public override ImmutableArray<string> FixableDiagnosticIds => ImmutableArray.Create(RuleIds.BlockingOnTask);

    public override FixAllProvider GetFixAllProvider() => WellKnownFixAllProviders.BatchFixer;

    public override async Task RegisterCodeFixesAsync(CodeFixContext context)
    {
        var diagnostic = context.Diagnostics[0];
        if (!AwaitPlacement.IsAwaitable(diagnostic)
            || !diagnostic.Properties.TryGetValue(AC0006BlockingOnTaskAnalyzer.KindProperty, out var kind)
            || await context.Document.GetSyntaxRootAsync(context.CancellationToken).ConfigureAwait(false) is not { } root)
        {
            return;
        }
        var node = root.FindNode(context.Span, getInnermostNodeForTie: true);
        var (replaced, awaited) = Rewrite(kind, node);
        if (replaced is null || awaited is null)
        {
            return;
        }
        context.RegisterCodeFix(
            CodeAction.Create(
                Title,
                _ => Task.FromResult(context.Document.WithSyntaxRoot(root.ReplaceNode(replaced, AwaitRewrite.Await(awaited, replaced)))),
                equivalenceKey: Title),
            diagnostic);
    }

    private static (ExpressionSyntax? Replaced, ExpressionSyntax? Awaited) Rewrite(string? kind, SyntaxNode node) => (kind, node) switch
    {
        (AC0006BlockingOnTaskAnalyzer.ResultKind, MemberAccessExpressionSyntax access) => (access, access.Expression),
        (AC0006BlockingOnTaskAnalyzer.WaitKind, InvocationExpressionSyntax { ArgumentList.Arguments.Count: 0, Expression: MemberAccessExpressionSyntax wait, Parent: ExpressionStatementSyntax } invocation) =>
            (invocation, wait.Expression),
        (AC0006BlockingOnTaskAnalyzer.GetResultKind, InvocationExpressionSyntax
        {
            Expression: MemberAccessExpressionSyntax { Expression: InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "GetAwaiter" } getAwaiter } },
        } invocation) => (invocation, getAwaiter.Expression),
        (AC0006BlockingOnTaskAnalyzer.WaitAllKind, InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax waitAll, Parent: ExpressionStatementSyntax } invocation) =>
            (invocation, invocation.WithExpression(waitAll.WithName(SyntaxFactory.IdentifierName("WhenAll")))),
        _ => (null, null),
    };
}
