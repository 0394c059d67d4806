using System;
using System.Collections.Immutable;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;

namespace AsyncCost.Analyzers.CodeFixes;

/// <summary>
/// The skeleton every AsyncCost fix shares: one rule (or one analysis reported under several IDs), and for each diagnostic whose shape the fix can rewrite, one
/// code action, planned before it is offered (a shape without a rewrite gets no action). Fix All goes through
/// the BatchFixer unless a rule needs its own.
/// </summary>
public abstract class RuleCodeFix : CodeFixProvider
{
    protected RuleCodeFix(params string[] ruleIds) => FixableDiagnosticIds = ImmutableArray.Create(ruleIds);

    public sealed override ImmutableArray<string> FixableDiagnosticIds { get; }

    public override FixAllProvider? GetFixAllProvider() => WellKnownFixAllProviders.BatchFixer;

    public sealed override async Task RegisterCodeFixesAsync(CodeFixContext context)
    {
        if (await context.Document.GetSyntaxRootAsync(context.CancellationToken).ConfigureAwait(false) is not { } root)
        {
            return;
        }
        foreach (var diagnostic in context.Diagnostics)
        {
            if (await PlanFixAsync(context.Document, root, diagnostic, context.CancellationToken).ConfigureAwait(false) is { } fix)
            {
                context.RegisterCodeFix(CodeAction.Create(fix.Title, fix.ApplyAsync, equivalenceKey: fix.Title), diagnostic);
            }
        }
    }

    /// <summary>The rewrite for one diagnostic, or null when its shape has none. Override this or <see cref="PlanFix"/>.</summary>
    protected virtual Task<PlannedFix?> PlanFixAsync(Document document, SyntaxNode root, Diagnostic diagnostic, CancellationToken cancellationToken) =>
        Task.FromResult(PlanFix(document, root, diagnostic));

    /// <summary>The rewrite for one diagnostic when planning it needs no semantic model.</summary>
    protected virtual PlannedFix? PlanFix(Document document, SyntaxNode root, Diagnostic diagnostic) => null;

    /// <summary>
    /// A Fix All that hands each document's diagnostics to <paramref name="fixDocument"/> at once, whatever action
    /// the caller picked: <c>dotnet format</c> asks with the first diagnostic's action, which a diagnostic without a
    /// fix does not have, and the BatchFixer then applies nothing.
    /// </summary>
    protected static FixAllProvider FixAllInDocument(string title, Func<Document, ImmutableArray<Diagnostic>, CancellationToken, Task<Document>> fixDocument) =>
        new DocumentFixAll(title, fixDocument);

    private sealed class DocumentFixAll(string title, Func<Document, ImmutableArray<Diagnostic>, CancellationToken, Task<Document>> fixDocument) : DocumentBasedFixAllProvider
    {
        protected override string GetFixAllTitle(FixAllContext fixAllContext) => title;

        protected override async Task<Document?> FixAllAsync(FixAllContext fixAllContext, Document document, ImmutableArray<Diagnostic> diagnostics) =>
            await fixDocument(document, diagnostics, fixAllContext.CancellationToken).ConfigureAwait(false);
    }
}

/// <summary>A fix planned for one diagnostic: the action's title (also its equivalence key) and the rewrite.</summary>
public sealed class PlannedFix
{
    public PlannedFix(string title, Func<CancellationToken, Task<Document>> applyAsync)
    {
        Title = title;
        ApplyAsync = applyAsync;
    }

    public string Title { get; }

    public Func<CancellationToken, Task<Document>> ApplyAsync { get; }

    /// <summary>A fix that replaces one node of the document's root.</summary>
    public static PlannedFix Replace(string title, Document document, SyntaxNode root, SyntaxNode node, SyntaxNode replacement) =>
        new(title, _ => Task.FromResult(document.WithSyntaxRoot(root.ReplaceNode(node, replacement))));
}
