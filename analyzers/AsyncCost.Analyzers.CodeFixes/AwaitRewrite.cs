using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Simplification;

namespace AsyncCost.Analyzers.CodeFixes;

/// <summary>Builds <c>await expr</c> to stand where a blocking expression stood, parenthesized only where needed.</summary>
internal static class AwaitRewrite
{
    public static ExpressionSyntax Await(ExpressionSyntax awaited, ExpressionSyntax replaced) =>
        SyntaxFactory.ParenthesizedExpression(SyntaxFactory.AwaitExpression(awaited.WithoutTrivia()))
            .WithTriviaFrom(replaced)
            .WithAdditionalAnnotations(Simplifier.Annotation);
}
