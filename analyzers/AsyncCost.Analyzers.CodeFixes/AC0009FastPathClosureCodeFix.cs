using System.Collections.Immutable;
using System.Composition;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using AsyncCost.Analyzers.Rules;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Editing;
using Microsoft.CodeAnalysis.Formatting;
using Microsoft.CodeAnalysis.Simplification;

namespace AsyncCost.Analyzers.CodeFixes;

/// <summary>
/// AC0009: passes the captured variables as leading parameters (leading, so optional parameters and named
/// arguments at the call sites keep binding as before) and makes the local function <c>static</c>, or leaves
/// it an instance local function when it uses <c>this</c> (which allocates nothing).
/// </summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(AC0009FastPathClosureCodeFix)), Shared]
public sealed class AC0009FastPathClosureCodeFix() : RuleCodeFix(RuleIds.FastPathClosure)
{
    private const string Title = "Pass the state as parameters";

    protected override PlannedFix? PlanFix(Document document, SyntaxNode root, Diagnostic diagnostic)
    {
        if (!diagnostic.Properties.TryGetValue(AC0009FastPathClosureAnalyzer.CapturedProperty, out var captured) || captured is null
            || root.FindToken(diagnostic.Location.SourceSpan.Start).Parent is not LocalFunctionStatementSyntax local)
        {
            return null;
        }
        var capturesThis = diagnostic.Properties.ContainsKey(AC0009FastPathClosureAnalyzer.CapturesThisProperty);
        return new PlannedFix(Title, ct => PassStateAsync(document, local, captured, capturesThis, ct));
    }

    private static async Task<Document> PassStateAsync(Document document, LocalFunctionStatementSyntax local, string captured, bool capturesThis, CancellationToken cancellationToken)
    {
        var model = await document.GetSemanticModelAsync(cancellationToken).ConfigureAwait(false);
        var function = model?.GetDeclaredSymbol(local, cancellationToken);
        var state = captured.Split('\n').Select(line => line.Split('\t')).Where(parts => parts.Length == 2).ToList();
        var editor = await DocumentEditor.CreateAsync(document, cancellationToken).ConfigureAwait(false);

        // Every call of the local function in its enclosing function (recursive calls included) passes the state.
        var scope = local.Parent?.FirstAncestorOrSelf<SyntaxNode>(n => n is BaseMethodDeclarationSyntax or LocalFunctionStatementSyntax or AccessorDeclarationSyntax) ?? local.Parent!;
        var arguments = state.Select(parts => SyntaxFactory.Argument(SyntaxFactory.IdentifierName(parts[0])));
        foreach (var call in scope.DescendantNodes().OfType<InvocationExpressionSyntax>())
        {
            if (SymbolEqualityComparer.Default.Equals(model?.GetSymbolInfo(call, cancellationToken).Symbol, function))
            {
                editor.ReplaceNode(call, (current, _) =>
                {
                    var invocation = (InvocationExpressionSyntax)current;
                    return invocation.WithArgumentList(invocation.ArgumentList.WithArguments(invocation.ArgumentList.Arguments.InsertRange(0, arguments)).WithAdditionalAnnotations(Formatter.Annotation));
                });
            }
        }

        var parameters = state.Select(parts => SyntaxFactory.Parameter(SyntaxFactory.Identifier(parts[0]))
            .WithType(SyntaxFactory.ParseTypeName(parts[1]).WithAdditionalAnnotations(Simplifier.Annotation).WithTrailingTrivia(SyntaxFactory.Space)));
        var canBeStatic = !capturesThis && ((CSharpParseOptions)local.SyntaxTree.Options).LanguageVersion >= LanguageVersion.CSharp8;
        editor.ReplaceNode(local, (current, _) =>
        {
            var updated = (LocalFunctionStatementSyntax)current;
            updated = updated.WithParameterList(updated.ParameterList.WithParameters(updated.ParameterList.Parameters.InsertRange(0, parameters)).WithAdditionalAnnotations(Formatter.Annotation));
            if (canBeStatic)
            {
                var modifiers = updated.Modifiers;
                var staticKeyword = SyntaxFactory.Token(SyntaxKind.StaticKeyword).WithLeadingTrivia(modifiers[0].LeadingTrivia).WithTrailingTrivia(SyntaxFactory.Space);
                modifiers = modifiers.Replace(modifiers[0], modifiers[0].WithLeadingTrivia()).Insert(0, staticKeyword);
                updated = updated.WithModifiers(modifiers);
            }
            return updated;
        });
        return editor.GetChangedDocument();
    }
}
