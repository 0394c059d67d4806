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
public sealed class AC0007BlockingWaitInAsyncCodeFix() : RuleCodeFix(RuleIds.BlockingWaitInAsync)
{
    protected override PlannedFix? PlanFix(Document document, SyntaxNode root, Diagnostic diagnostic)
    {
        if (!AwaitPlacement.IsAwaitable(diagnostic)
            || !diagnostic.Properties.TryGetValue(AC0007BlockingWaitInAsyncAnalyzer.ReplacementProperty, out var replacement)
            || root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true) is not InvocationExpressionSyntax invocation)
        {
            return null;
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
        return awaited is null
            ? null
            : PlannedFix.Replace("Use 'await " + replacement + "'", document, root, invocation, AwaitRewrite.Await(awaited, invocation));
    }
}
