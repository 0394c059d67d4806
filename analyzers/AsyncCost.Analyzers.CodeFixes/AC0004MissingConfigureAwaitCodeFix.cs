using System.Collections.Generic;
using System.Collections.Immutable;
using System.Composition;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using AsyncCost.Analyzers.CodeFixes.Internal;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Formatting;

namespace AsyncCost.Analyzers.CodeFixes;

/// <summary>
/// AC0004: appends <c>.ConfigureAwait(false)</c> to the awaited task or the <c>await foreach</c> collection, and
/// splits <c>await using var s = X();</c> into <c>var s = X(); await using var sDisposal = s.ConfigureAwait(false);</c>
/// so the variable keeps its type. Fix All rewrites nested cases (<c>await await X()</c>) in one pass.
/// An <c>await using</c> is rewritten only when its resource cannot be null: <c>await using</c> skips a null resource,
/// the configured wrapper would call DisposeAsync on it and throw, so a resource that may be null gets no fix.
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(AC0004MissingConfigureAwaitCodeFix)), Shared]
public sealed class AC0004MissingConfigureAwaitCodeFix() : RuleCodeFix(RuleIds.MissingConfigureAwait)
{
    private const string Title = "Add ConfigureAwait(false)";

    public override FixAllProvider GetFixAllProvider() => FixAllInDocument(Title, ApplyAsync);

    protected override async Task<PlannedFix?> PlanFixAsync(Document document, SyntaxNode root, Diagnostic diagnostic, CancellationToken cancellationToken)
    {
        if (Target.Find(root, diagnostic) is not { IsFixable: true } target)
        {
            return null;
        }
        if (target.Node is StatementSyntax statement
            && !ResourcesNeverNull(await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false), statement, cancellationToken))
        {
            return null;
        }
        return new PlannedFix(Title, ct => ApplyAsync(document, ImmutableArray.Create(diagnostic), ct));
    }

    private static async Task<Document> ApplyAsync(Document document, ImmutableArray<Diagnostic> diagnostics, CancellationToken cancellationToken)
    {
        var root = await document.GetSyntaxRootAsync(cancellationToken).ConfigureAwait(false);
        if (root is null)
        {
            return document;
        }
        var targets = diagnostics.Select(d => Target.Find(root, d)).Where(t => t is { IsFixable: true }).Select(t => t!.Value).ToList();
        var expressions = targets.Where(t => t.Node is ExpressionSyntax).Select(t => (ExpressionSyntax)t.Node).ToList();
        var usings = targets.Where(t => t.Node is StatementSyntax).Select(t => (StatementSyntax)t.Node).ToList();
        if (usings.Count > 0)
        {
            var model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
            usings.RemoveAll(statement => !ResourcesNeverNull(model, statement, cancellationToken));
        }

        // Expressions first, all at once: ReplaceNodes hands each replacement its already-rewritten descendants,
        // so await await X() gets both ConfigureAwait calls. Usings are then split one by one, found again by tracking.
        var tracked = root.TrackNodes(usings.Cast<SyntaxNode>().Concat(expressions));
        tracked = tracked.ReplaceNodes(
            expressions.Select(e => tracked.GetCurrentNode(e)!),
            (_, rewritten) => AwaitRewrite.ConfigureAwaitFalse(rewritten));
        foreach (var statement in usings)
        {
            if (tracked.GetCurrentNode(statement) is { } current)
            {
                tracked = SplitUsing(tracked, current);
            }
        }
        return document.WithSyntaxRoot(tracked);
    }

    // Only a resource known not to be null may move into the configured wrapper. Known: a value type other than
    // Nullable<T> (the wrapper disposes a boxed copy, which is what await using does too: its variable is read-only),
    // an object creation, or a reference the compiler's nullable analysis (annotations on) says is not null.
    private static bool ResourcesNeverNull(SemanticModel? model, StatementSyntax statement, CancellationToken cancellationToken)
    {
        IEnumerable<ExpressionSyntax?> resources = statement switch
        {
            LocalDeclarationStatementSyntax declaration => declaration.Declaration.Variables.Select(v => v.Initializer?.Value),
            UsingStatementSyntax { Declaration: { } declaration } => declaration.Variables.Select(v => v.Initializer?.Value),
            UsingStatementSyntax { Expression: { } expression } => [expression],
            _ => [null],
        };
        return model is not null && resources.All(resource => resource is not null && NeverNull(model, resource, cancellationToken));
    }

    private static bool NeverNull(SemanticModel model, ExpressionSyntax resource, CancellationToken cancellationToken)
    {
        var type = model.GetTypeInfo(resource, cancellationToken);
        if (type.Type is { IsValueType: true } valueType)
        {
            return valueType.OriginalDefinition.SpecialType != SpecialType.System_Nullable_T;
        }
        if (type.Type is not { IsReferenceType: true })
        {
            return false;
        }
        var value = resource;
        while (value is ParenthesizedExpressionSyntax parenthesized)
        {
            value = parenthesized.Expression;
        }
        return value is BaseObjectCreationExpressionSyntax
            || (model.GetNullableContext(resource.SpanStart).AnnotationsEnabled()
                && type.Nullability.FlowState == NullableFlowState.NotNull
                && type.Type.NullableAnnotation == NullableAnnotation.NotAnnotated);
    }

    // `await using T a = A(), b = B();` becomes, per variable in order, `T a = A(); await using var aDisposal = a.ConfigureAwait(false);`
    // (so B() still runs only after a is guarded); `await using (var a = A()) body` becomes `var a = A(); await using (a.ConfigureAwait(false)) body`.
    private static SyntaxNode SplitUsing(SyntaxNode root, StatementSyntax statement)
    {
        var replacement = new List<StatementSyntax>();
        var wrapInBlock = statement.Parent is not (BlockSyntax or SwitchSectionSyntax or GlobalStatementSyntax);
        switch (statement)
        {
            case LocalDeclarationStatementSyntax declaration:
                foreach (var variable in declaration.Declaration.Variables)
                {
                    var name = LocalNames.Unique(statement, variable.Identifier.ValueText + "Disposal");
                    replacement.Add(SyntaxFactory.LocalDeclarationStatement(
                        SyntaxFactory.VariableDeclaration(declaration.Declaration.Type.WithoutTrivia(), SyntaxFactory.SingletonSeparatedList(variable.WithoutTrivia()))));
                    replacement.Add(SyntaxFactory.ParseStatement($"await using var {name} = {variable.Identifier.ValueText}.ConfigureAwait(false);"));
                }
                break;
            case UsingStatementSyntax { Declaration: { Variables.Count: 1 } declaration } usingStatement:
                var variableName = declaration.Variables[0].Identifier.ValueText;
                replacement.Add(SyntaxFactory.LocalDeclarationStatement(declaration.WithoutTrivia()));
                replacement.Add(usingStatement.WithDeclaration(null)
                    .WithExpression(AwaitRewrite.ConfigureAwaitFalse(SyntaxFactory.IdentifierName(variableName)))
                    .WithoutLeadingTrivia());
                // Hoisting the variable must not collide with a same-named variable elsewhere in the enclosing block.
                wrapInBlock |= statement.Parent is { } parent
                    && parent.DescendantNodes().OfType<VariableDeclaratorSyntax>().Count(v => v.Identifier.ValueText == variableName) > 1;
                break;
            case UsingStatementSyntax { Expression: { } expression } usingStatement:
                replacement.Add(usingStatement.WithExpression(AwaitRewrite.ConfigureAwaitFalse(expression)));
                wrapInBlock = false;
                break;
            default:
                return root;
        }

        var annotated = replacement.Select(s => s.WithAdditionalAnnotations(Formatter.Annotation)).ToList();
        annotated[0] = annotated[0].WithLeadingTrivia(statement.GetLeadingTrivia());
        annotated[annotated.Count - 1] = annotated[annotated.Count - 1].WithTrailingTrivia(statement.GetTrailingTrivia());
        if (annotated.Count == 1)
        {
            return root.ReplaceNode(statement, annotated[0]);
        }
        if (wrapInBlock)
        {
            return root.ReplaceNode(statement, SyntaxFactory.Block(annotated).WithAdditionalAnnotations(Formatter.Annotation));
        }
        if (statement.Parent is GlobalStatementSyntax global)
        {
            return root.ReplaceNode(global, annotated.Select(s => SyntaxFactory.GlobalStatement(s)));
        }
        return root.ReplaceNode(statement, annotated);
    }

    /// <summary>What a diagnostic points at: an awaited expression, an await foreach collection, or an await using statement.</summary>
    private readonly struct Target
    {
        private Target(SyntaxNode node, bool isFixable)
        {
            Node = node;
            IsFixable = isFixable;
        }

        public SyntaxNode Node { get; }

        public bool IsFixable { get; }

        public static Target? Find(SyntaxNode root, Diagnostic diagnostic)
        {
            var span = diagnostic.Location.SourceSpan;
            return root.FindNode(span, getInnermostNodeForTie: true) switch
            {
                LocalDeclarationStatementSyntax declaration when declaration.AwaitKeyword.SpanStart == span.Start => new Target(declaration, true),
                UsingStatementSyntax usingStatement when usingStatement.AwaitKeyword.SpanStart == span.Start =>
                    new Target(usingStatement, usingStatement.Expression is not null || usingStatement.Declaration?.Variables.Count == 1),
                ExpressionSyntax expression when expression.Span == span => new Target(OutermostWithSpan(expression), true),
                _ => null,
            };
        }

        private static ExpressionSyntax OutermostWithSpan(ExpressionSyntax expression)
        {
            var current = expression;
            while (current.Parent is ExpressionSyntax parent && parent.Span == current.Span)
            {
                current = parent;
            }
            return current;
        }
    }
}
