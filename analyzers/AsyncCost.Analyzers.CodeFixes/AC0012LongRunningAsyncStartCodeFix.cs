using System.Composition;
using System.Linq;
using AsyncCost.Analyzers.Rules;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Simplification;

namespace AsyncCost.Analyzers.CodeFixes;

/// <summary>
/// AC0012: <c>Task.Factory.StartNew(work, TaskCreationOptions.LongRunning)</c> → <c>Task.Run(work)</c> (and the
/// overload with a token and the default scheduler → <c>Task.Run(work, token)</c>; <c>.Unwrap()</c> goes with it),
/// where the analyzer found the call's result can take the unwrapped task (<see cref="AC0012LongRunningAsyncStartAnalyzer.TaskRunProperty"/>).
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(AC0012LongRunningAsyncStartCodeFix)), Shared]
public sealed class AC0012LongRunningAsyncStartCodeFix() : RuleCodeFix(RuleIds.LongRunningAsyncStart)
{
    protected override PlannedFix? PlanFix(Document document, SyntaxNode root, Diagnostic diagnostic)
    {
        if (!diagnostic.Properties.ContainsKey(AC0012LongRunningAsyncStartAnalyzer.TaskRunProperty)
            || root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true) is not { Parent: InvocationExpressionSyntax startNew } callee
            || startNew.Expression != callee
            || startNew.ArgumentList.Arguments is not { Count: 2 or 4 } arguments
            || arguments.Any(argument => argument.NameColon is not null))
        {
            return null;
        }
        ExpressionSyntax replaced = startNew;
        if (diagnostic.Properties.ContainsKey(AC0012LongRunningAsyncStartAnalyzer.UnwrappedProperty))
        {
            if (startNew.Parent is not MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Unwrap", Parent: InvocationExpressionSyntax unwrap } access
                || access.Expression != startNew)
            {
                return null;
            }
            replaced = unwrap;
        }
        // The options (and the default scheduler) go; the delegate (and the token) keep their own text and separators.
        var kept = arguments.Count == 2 ? arguments.RemoveAt(1) : arguments.RemoveAt(3).RemoveAt(2);
        var run = SyntaxFactory.InvocationExpression(
                SyntaxFactory.ParseExpression("System.Threading.Tasks.Task.Run").WithAdditionalAnnotations(Simplifier.Annotation),
                startNew.ArgumentList.WithArguments(kept))
            .WithTriviaFrom(replaced);
        return PlannedFix.Replace("Use Task.Run, which unwraps, without the dedicated thread", document, root, replaced, run);
    }
}
