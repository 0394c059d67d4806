using System.Collections.Generic;
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
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Simplification;

namespace AsyncCost.Analyzers.CodeFixes;

/// <summary>
/// AC0001 for the two plain shapes: <c>foreach (var x in xs) await F(x);</c> becomes
/// <c>await Task.WhenAll(xs.Select(x => F(x)));</c> and <c>foreach (var x in xs) list.Add(await F(x));</c> becomes
/// <c>list.AddRange(await Task.WhenAll(xs.Select(x => F(x))));</c>. The calls then run concurrently, which is the
/// point; the title says so, since it is a behaviour change the user must agree to. Fix All rewrites every such loop
/// of a document (project, solution) at once: the rule only reports loops with evidence that their iterations are
/// independent, so each rewrite is the same decision.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(AC0001AwaitInLoopCodeFix)), Shared]
public sealed class AC0001AwaitInLoopCodeFix() : RuleCodeFix(RuleIds.AwaitInLoop)
{
    private const string Title = "Start all iterations and await Task.WhenAll once (runs them concurrently)";

    public override FixAllProvider GetFixAllProvider() => FixAllInDocument(Title, FixAllAsync);

    protected override async Task<PlannedFix?> PlanFixAsync(Document document, SyntaxNode root, Diagnostic diagnostic, CancellationToken cancellationToken)
    {
        var model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
        if (model is null || PlanFor(root, diagnostic, model, cancellationToken) is not { } plan)
        {
            return null;
        }
        return new PlannedFix(Title, _ => Task.FromResult(document.WithSyntaxRoot(Plan.Apply(root, [plan]))));
    }

    // Every loop of the document at once, each planned on the original tree (one finding per loop, and a nested loop
    // is never a fixable shape: the fix needs a body of one statement that awaits).
    private static async Task<Document> FixAllAsync(Document document, ImmutableArray<Diagnostic> diagnostics, CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        var model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
        if (root is null || model is null)
        {
            return document;
        }
        var plans = diagnostics.Select(d => PlanFor(root, d, model, cancellationToken)).OfType<Plan>().ToList();
        return plans.Count == 0 ? document : document.WithSyntaxRoot(Plan.Apply(root, plans));
    }

    private static Plan? PlanFor(SyntaxNode root, Diagnostic diagnostic, SemanticModel model, CancellationToken cancellationToken) =>
        root.FindNode(diagnostic.Location.SourceSpan, getInnermostNodeForTie: true) is AwaitExpressionSyntax awaitExpression
            ? Plan.Create(awaitExpression, model, cancellationToken)
            : null;

    private sealed class Plan
    {
        private ForEachStatementSyntax _loop = null!;
        private ExpressionSyntax _task = null!;
        private bool _isValueTask;
        private ArgumentListSyntax? _configureAwait;
        private ExpressionSyntax? _addReceiver;

        public static Plan? Create(AwaitExpressionSyntax awaitExpression, SemanticModel model, CancellationToken cancellationToken)
        {
            var plan = new Plan();
            StatementSyntax? statement;
            if (awaitExpression.Parent is ExpressionStatementSyntax awaitStatement)
            {
                statement = awaitStatement;
            }
            else if (awaitExpression.Parent is ArgumentSyntax { Parent: ArgumentListSyntax { Arguments.Count: 1, Parent: InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "Add" } add, Parent: ExpressionStatementSyntax addStatement } } }
                && model.GetTypeInfo(add.Expression, cancellationToken).Type is { } receiverType
                && receiverType.GetMembers("AddRange").OfType<IMethodSymbol>().Any(m => m.Parameters.Length == 1))
            {
                plan._addReceiver = add.Expression;
                statement = addStatement;
            }
            else
            {
                return null;
            }

            var loop = statement.Parent is BlockSyntax { Statements.Count: 1, Parent: ForEachStatementSyntax blockLoop } ? blockLoop : statement.Parent as ForEachStatementSyntax;
            if (loop is null || loop.AwaitKeyword != default || !model.GetForEachStatementInfo(loop).ElementConversion.IsIdentity)
            {
                return null;
            }
            plan._loop = loop;

            plan._task = awaitExpression.Expression;
            if (plan._task is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "ConfigureAwait" } configure } configureCall)
            {
                plan._task = configure.Expression;
                plan._configureAwait = configureCall.ArgumentList;
            }
            var taskType = model.GetTypeInfo(plan._task, cancellationToken).Type;
            plan._isValueTask = taskType is { Name: "ValueTask", ContainingNamespace: { Name: "Tasks" } };
            return plan;
        }

        public static SyntaxNode Apply(SyntaxNode root, IReadOnlyList<Plan> plans)
        {
            var byLoop = new Dictionary<SyntaxNode, Plan>();
            foreach (var plan in plans)
            {
                byLoop[plan._loop] = plan;
            }
            return WithLinqImport(root.ReplaceNodes(byLoop.Keys, (original, _) => byLoop[original].Replacement()));
        }

        private ExpressionStatementSyntax Replacement()
        {
            var element = SyntaxFactory.Parameter(_loop.Identifier.WithoutTrivia());
            var body = _isValueTask ? Invoke(_task.WithoutTrivia(), "AsTask") : _task.WithoutTrivia();
            var collection = _loop.Expression.WithoutTrivia();
            if (collection is not (InvocationExpressionSyntax or MemberAccessExpressionSyntax or SimpleNameSyntax or ElementAccessExpressionSyntax or ParenthesizedExpressionSyntax))
            {
                collection = SyntaxFactory.ParenthesizedExpression(collection);
            }
            var select = Invoke(collection, "Select", SyntaxFactory.SimpleLambdaExpression(element, body));
            var taskType = SyntaxFactory.ParseTypeName("System.Threading.Tasks.Task").WithAdditionalAnnotations(Simplifier.Annotation);
            ExpressionSyntax whenAll = SyntaxFactory.InvocationExpression(
                SyntaxFactory.MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, taskType, SyntaxFactory.IdentifierName("WhenAll")),
                SyntaxFactory.ArgumentList(SyntaxFactory.SingletonSeparatedList(SyntaxFactory.Argument(select))));
            if (_configureAwait is not null)
            {
                whenAll = SyntaxFactory.InvocationExpression(
                    SyntaxFactory.MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, whenAll, SyntaxFactory.IdentifierName("ConfigureAwait")),
                    _configureAwait);
            }
            ExpressionSyntax awaited = SyntaxFactory.AwaitExpression(whenAll);
            if (_addReceiver is not null)
            {
                awaited = Invoke(_addReceiver.WithoutTrivia(), "AddRange", awaited);
            }
            return SyntaxFactory.ExpressionStatement(awaited)
                .WithTriviaFrom(_loop)
                .WithAdditionalAnnotations(Formatter.Annotation);
        }

        private static InvocationExpressionSyntax Invoke(ExpressionSyntax receiver, string name, params ExpressionSyntax[] arguments) =>
            SyntaxFactory.InvocationExpression(
                SyntaxFactory.MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, receiver, SyntaxFactory.IdentifierName(name)),
                SyntaxFactory.ArgumentList(SyntaxFactory.SeparatedList(arguments.Select(SyntaxFactory.Argument))));

        // Enumerable.Select needs System.Linq in scope; add the directive unless the file has it. A global using in
        // another file is not looked for: the directive is then redundant, which is harmless (IDE0005 is hidden).
        private static SyntaxNode WithLinqImport(SyntaxNode root)
        {
            if (root is not CompilationUnitSyntax unit
                || root.DescendantNodes().OfType<UsingDirectiveSyntax>().Any(u => u.Name?.ToString() == "System.Linq"))
            {
                return root;
            }
            var directive = SyntaxFactory.UsingDirective(SyntaxFactory.ParseName("System.Linq")).WithAdditionalAnnotations(Formatter.Annotation);
            var index = unit.Usings.TakeWhile(u => string.CompareOrdinal(u.Name?.ToString(), "System.Linq") < 0).Count();
            return unit.WithUsings(unit.Usings.Insert(index, directive.WithTrailingTrivia(SyntaxFactory.ElasticCarriageReturnLineFeed)));
        }
    }
}
