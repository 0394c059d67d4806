using AsyncCost.Analyzers.Rules;
using System.Collections.Immutable;
using System.Composition;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;

namespace AsyncCost.Analyzers.CodeFixes;

/// <summary>
/// AC0005: moves the yield out of the loop, to just before the outermost loop that runs it unconditionally,
/// so the method still returns to its caller before the work but pays one hop instead of one per iteration.
/// Not offered where the yield is a poll loop's only wait: there the move would leave a busy spin.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(AC0005TaskYieldInLoopCodeFix)), Shared]
public sealed class AC0005TaskYieldInLoopCodeFix() : RuleCodeFix(RuleIds.TaskYieldInLoop)
{
    private const string Title = "Yield once, before the loop";

    protected override PlannedFix? PlanFix(Document document, SyntaxNode root, Diagnostic diagnostic) =>
        !diagnostic.Properties.ContainsKey(AC0005TaskYieldInLoopAnalyzer.PollProperty)
        && root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true)?.FirstAncestorOrSelf<AwaitExpressionSyntax>() is { Parent: ExpressionStatementSyntax yieldStatement }
            && OutermostLoop(yieldStatement) is { Parent: BlockSyntax } loop
            ? new PlannedFix(Title, ct => HoistAsync(document, yieldStatement, loop, ct))
            : null;

    // The yield statement must be the loop's own statement (or one of its body block's); climbing on while the
    // loop is itself the whole or a direct statement of an outer loop's body.
    private static StatementSyntax? OutermostLoop(ExpressionStatementSyntax yieldStatement)
    {
        var statement = yieldStatement.Parent is BlockSyntax block ? (SyntaxNode)block : yieldStatement;
        if (!IsLoopBody(statement, out var loop))
        {
            return null;
        }
        while (loop.Parent is BlockSyntax outerBlock && IsLoopBody(outerBlock, out var outer)
            || loop.Parent is StatementSyntax && IsLoopBody(loop, out outer))
        {
            loop = outer;
        }
        return loop;
    }

    private static bool IsLoopBody(SyntaxNode body, out StatementSyntax loop)
    {
        loop = null!;
        if (body.Parent is WhileStatementSyntax or DoStatementSyntax or ForStatementSyntax or CommonForEachStatementSyntax
            && LoopBody((StatementSyntax)body.Parent) == body)
        {
            loop = (StatementSyntax)body.Parent;
            return true;
        }
        return false;
    }

    private static StatementSyntax? LoopBody(StatementSyntax loop) => loop switch
    {
        WhileStatementSyntax w => w.Statement,
        DoStatementSyntax d => d.Statement,
        ForStatementSyntax f => f.Statement,
        CommonForEachStatementSyntax f => f.Statement,
        _ => null,
    };

    private static async Task<Document> HoistAsync(Document document, ExpressionStatementSyntax yieldStatement, StatementSyntax loop, CancellationToken cancellationToken)
    {
        var editor = await DocumentEditor.CreateAsync(document, cancellationToken).ConfigureAwait(false);
        if (yieldStatement.Parent is BlockSyntax)
        {
            editor.RemoveNode(yieldStatement, SyntaxRemoveOptions.KeepNoTrivia);
        }
        else
        {
            editor.ReplaceNode(yieldStatement, SyntaxFactory.Block().WithTriviaFrom(yieldStatement));
        }

        // A yield already right before the loop does the job: only the one inside goes.
        var block = (BlockSyntax)loop.Parent!;
        var index = block.Statements.IndexOf(loop);
        var alreadyYields = index > 0 && block.Statements[index - 1].IsEquivalentTo(yieldStatement.WithoutTrivia(), topLevel: false);
        if (!alreadyYields)
        {
            var hoisted = yieldStatement.WithoutTrivia()
                .WithLeadingTrivia(loop.GetLeadingTrivia().Where(t => t.IsKind(SyntaxKind.WhitespaceTrivia)))
                .WithTrailingTrivia(SyntaxFactory.ElasticCarriageReturnLineFeed)
                .WithAdditionalAnnotations(Formatter.Annotation);
            editor.InsertBefore(loop, hoisted);
        }
        return editor.GetChangedDocument();
    }
}
