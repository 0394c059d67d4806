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
using Microsoft.CodeAnalysis.Simplification;

namespace AsyncCost.Analyzers.CodeFixes;

/// <summary>
/// AC0007: the two mechanical replacements, <c>Thread.Sleep(x)</c> → <c>await Task.Delay(x)</c> and
/// <c>semaphore.Wait(args)</c> → <c>await semaphore.WaitAsync(args)</c> (same overloads, same results).
/// The other waits need a different design (a TaskCompletionSource, a Channel) and get no automatic fix.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(AC0007BlockingWaitInAsyncCodeFix)), Shared]
public sealed class AC0007BlockingWaitInAsyncCodeFix : CodeFixProvider
{
    public override ImmutableArray<string> FixableDiagnosticIds => ImmutableArray.Create(RuleIds.BlockingWaitInAsync);

    public override FixAllProvider GetFixAllProvider() => WellKnownFixAllProviders.BatchFixer;

    public override async Task RegisterCodeFixesAsync(CodeFixContext context)
    {
        var diagnostic = context.Diagnostics[0];
        if (!AwaitPlacement.IsAwaitable(diagnostic)
            || !diagnostic.Properties.TryGetValue(AC0007BlockingWaitInAsyncAnalyzer.ReplacementProperty, out var replacement)
            || await context.Document.GetSyntaxRootAsync(context.CancellationToken).ConfigureAwait(false) is not { } root
            || root.FindNode(context.Span, getInnermostNodeForTie: true) is not InvocationExpressionSyntax invocation)
        {
            return;
        }

        ExpressionSyntax? awaited = replacement switch
        {
            AC0007BlockingWaitInAsyncAnalyzer.DelayReplacement => SyntaxFactory.InvocationExpression(
                SyntaxFactory.ParseExpression("System.Threading.Tasks.Task.Delay").WithAdditionalAnnotations(Simplifier.Annotation),
                invocation.ArgumentList),
            AC0007BlockingWaitInAsyncAnalyzer.WaitAsyncReplacement when invocation.Expression is MemberAccessExpressionSyntax access =>
                invocation.WithExpression(access.WithName(SyntaxFactory.IdentifierName("WaitAsync"))),
            _ => null,
        };
        if (awaited is null)
        {
            return;
        }
        var title = "Use 'await " + replacement + "'";
        context.RegisterCodeFix(
            CodeAction.Create(
                title,
                _ => Task.FromResult(context.Document.WithSyntaxRoot(root.ReplaceNode(invocation, AwaitRewrite.Await(awaited, invocation)))),
                equivalenceKey: title),
            diagnostic);
    }
}
