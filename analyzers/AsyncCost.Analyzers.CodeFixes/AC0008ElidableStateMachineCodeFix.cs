using System.Collections.Immutable;
using System.Composition;
using System.Linq;
using System.Threading.Tasks;
using AsyncCost.Analyzers.Rules;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CodeActions;
using Microsoft.CodeAnalysis.CodeFixes;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace AsyncCost.Analyzers.CodeFixes;

/// <summary>AC0008: drops <c>async</c> and returns the awaited task (without its <c>ConfigureAwait(bool)</c>, which only configured the await).</summary>
[ExportCodeFixProvider(LanguageNames.CSharp, Name = nameof(AC0008ElidableStateMachineCodeFix)), Shared]
public sealed class AC0008ElidableStateMachineCodeFix() : RuleCodeFix(RuleIds.ElidableStateMachine)
{
    private const string Title = "Return the task without async/await";

    protected override PlannedFix? PlanFix(Document document, SyntaxNode root, Diagnostic diagnostic)
    {
        var declaration = root.FindToken(diagnostic.Location.SourceSpan.Start).Parent;
        var stripConfigureAwait = diagnostic.Properties.ContainsKey(AC0008ElidableStateMachineAnalyzer.ConfigureAwaitProperty);
        return declaration is MethodDeclarationSyntax or LocalFunctionStatementSyntax && Elide(declaration, stripConfigureAwait) is { } elided
            ? PlannedFix.Replace(Title, document, root, declaration, elided)
            : null;
    }

    private static SyntaxNode? Elide(SyntaxNode declaration, bool stripConfigureAwait)
    {
        var (body, expressionBody) = declaration switch
        {
            MethodDeclarationSyntax m => (m.Body, m.ExpressionBody),
            LocalFunctionStatementSyntax l => (l.Body, l.ExpressionBody),
            _ => (null, null),
        };

        SyntaxNode? oldNode;
        SyntaxNode? newNode;
        if (expressionBody is { Expression: AwaitExpressionSyntax arrowAwait })
        {
            (oldNode, newNode) = (arrowAwait, AwaitedTask(arrowAwait, stripConfigureAwait).WithTriviaFrom(arrowAwait));
        }
        else if (body?.Statements.SingleOrDefault() is ReturnStatementSyntax { Expression: AwaitExpressionSyntax returnAwait })
        {
            (oldNode, newNode) = (returnAwait, AwaitedTask(returnAwait, stripConfigureAwait).WithTriviaFrom(returnAwait));
        }
        else if (body?.Statements.SingleOrDefault() is ExpressionStatementSyntax { Expression: AwaitExpressionSyntax statementAwait } statement)
        {
            (oldNode, newNode) = (statement, SyntaxFactory.ReturnStatement(AwaitedTask(statementAwait, stripConfigureAwait).WithLeadingTrivia(SyntaxFactory.Space)).WithTriviaFrom(statement));
        }
        else
        {
            return null;
        }

        var rewritten = declaration.ReplaceNode(oldNode, newNode);
        return rewritten switch
        {
            MethodDeclarationSyntax m => WithoutAsync(m.Modifiers, m.ReturnType, (mods, type) => m.WithModifiers(mods).WithReturnType(type)),
            LocalFunctionStatementSyntax l => WithoutAsync(l.Modifiers, l.ReturnType, (mods, type) => l.WithModifiers(mods).WithReturnType(type)),
            _ => null,
        };
    }

    private static ExpressionSyntax AwaitedTask(AwaitExpressionSyntax awaitExpression, bool stripConfigureAwait)
    {
        var task = awaitExpression.Expression;
        if (stripConfigureAwait
            && task is InvocationExpressionSyntax { Expression: MemberAccessExpressionSyntax { Name.Identifier.ValueText: "ConfigureAwait" } configure })
        {
            task = configure.Expression;
        }
        return task.WithoutTrivia();
    }

    // The async keyword's leading trivia (indentation, comments) moves to whatever now starts the declaration.
    private static SyntaxNode WithoutAsync(SyntaxTokenList modifiers, TypeSyntax returnType, System.Func<SyntaxTokenList, TypeSyntax, SyntaxNode> with)
    {
        var index = modifiers.IndexOf(SyntaxKind.AsyncKeyword);
        var asyncKeyword = modifiers[index];
        var remaining = modifiers.RemoveAt(index);
        if (index < remaining.Count)
        {
            remaining = remaining.Replace(remaining[index], remaining[index].WithLeadingTrivia(asyncKeyword.LeadingTrivia));
        }
        else if (index == 0)
        {
            returnType = returnType.WithLeadingTrivia(asyncKeyword.LeadingTrivia);
        }
        return with(remaining, returnType);
    }
}
