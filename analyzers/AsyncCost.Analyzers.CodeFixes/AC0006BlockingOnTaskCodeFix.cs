using System.Collections.Immutable;
using System.Composition;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using AsyncCost.Analyzers.Internal;
using AsyncCost.Analyzers.Rules;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace AsyncCost.Analyzers.CodeFixes;

/// <summary>
/// AC0006 (and AC0011, its finding in a test project) in an async function: <c>t.Result</c> → <c>await t</c>, <c>t.Wait()</c> → <c>await t</c>,
/// <c>t.ConfigureAwait(false).GetAwaiter().GetResult()</c> → <c>await t.ConfigureAwait(false)</c>,
/// <c>Task.WaitAll(a, b)</c> → <c>await Task.WhenAll(a, b)</c>; in library code the new await gets
/// <c>.ConfigureAwait(false)</c>, so the result is clean under AC0004. Synchronous callers need their own signature
/// changed first, which is a design decision, so they get no automatic fix, and Fix All skips them.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(AC0006BlockingOnTaskCodeFix)), Shared]
public sealed class AC0006BlockingOnTaskCodeFix() : RuleCodeFix(RuleIds.BlockingOnTask, RuleIds.BlockingInTest)
{
    private const string Title = "Await the task instead of blocking on it";

    public override FixAllProvider GetFixAllProvider() => FixAllInDocument(Title, FixAllAsync);

    protected override PlannedFix? PlanFix(Document document, SyntaxNode root, Diagnostic diagnostic) =>
        Target(root, diagnostic) is { } target
            ? PlannedFix.Replace(Title, document, root, target.Replaced, Rewrite(target, target.Replaced))
            : null;

    private static async Task<Document> FixAllAsync(Document document, ImmutableArray<Diagnostic> diagnostics, CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        if (root is null)
        {
            return document;
        }
        // All at once: ReplaceNodes hands each replacement its already-rewritten descendants (`a.Result.M(b.Result)`).
        var targets = diagnostics.Select(d => Target(root, d)).OfType<BlockingCall>().ToDictionary(t => (SyntaxNode)t.Replaced);
        return document.WithSyntaxRoot(root.ReplaceNodes(targets.Keys, (original, rewritten) => Rewrite(targets[original], (ExpressionSyntax)rewritten)));
    }

    /// <summary>The blocking expression a diagnostic names (anchored on its member name), when it can become an await.</summary>
    private static BlockingCall? Target(SyntaxNode root, Diagnostic diagnostic)
    {
        if (!AwaitPlacement.IsAwaitable(diagnostic) || !diagnostic.Properties.TryGetValue(BlockingCalls.KindProperty, out var kind))
        {
            return null;
        }
        var access = root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true).Parent as MemberAccessExpressionSyntax;
        ExpressionSyntax? replaced = (kind, access) switch
        {
            (BlockingCalls.ResultKind, { }) => access,
            (BlockingCalls.WaitKind, { Parent: InvocationExpressionSyntax { ArgumentList.Arguments.Count: 0, Parent: ExpressionStatementSyntax } wait }) => wait,
            (BlockingCalls.GetResultKind, { Expression: InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "GetAwaiter" } }, Parent: InvocationExpressionSyntax getResult }) => getResult,
            (BlockingCalls.WaitAllKind, { Parent: InvocationExpressionSyntax { Parent: ExpressionStatementSyntax } waitAll }) => waitAll,
            _ => null,
        };
        return replaced is null ? null : new BlockingCall(kind!, replaced, diagnostic.Properties.ContainsKey(BlockingCalls.ConfigureAwaitProperty));
    }

    // From the blocking expression as it stands (possibly with nested fixes already applied) to its await.
    private static ExpressionSyntax Rewrite(BlockingCall call, ExpressionSyntax replaced)
    {
        ExpressionSyntax awaited = (call.Kind, replaced) switch
        {
            (BlockingCalls.ResultKind, MemberAccessExpressionSyntax result) => result.Expression,
            (BlockingCalls.WaitKind, InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax wait }) => wait.Expression,
            (BlockingCalls.GetResultKind, InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Expression: InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax getAwaiter } } }) =>
                getAwaiter.Expression,
            (_, InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax waitAll } invocation) =>
                invocation.WithExpression(waitAll.WithName(SyntaxFactory.IdentifierName("WhenAll"))),
            _ => replaced,
        };
        // `t.ConfigureAwait(x).GetAwaiter().GetResult()` keeps its own configuration.
        if (call.ConfigureAwait && awaited is not InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "ConfigureAwait" } })
        {
            awaited = AwaitRewrite.ConfigureAwaitFalse(awaited);
        }
        return AwaitRewrite.Await(awaited, replaced);
    }

    private sealed class BlockingCall(string kind, ExpressionSyntax replaced, bool configureAwait)
    {
        public string Kind { get; } = kind;
        public ExpressionSyntax Replaced { get; } = replaced;
        public bool ConfigureAwait { get; } = configureAwait;
    }
}
