using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;
using Microsoft.CodeAnalysis.Simplification;

namespace AsyncCost.Analyzers.CodeFixes;

/// <summary>Builds the awaits the fixes write: <c>await expr</c> where a blocking expression stood, and <c>expr.ConfigureAwait(false)</c>.</summary>
internal static class AwaitRewrite
{
    public static ExpressionSyntax Await(ExpressionSyntax awaited, ExpressionSyntax replaced) =>
        SyntaxFactory.ParenthesizedExpression(SyntaxFactory.AwaitExpression(awaited.WithoutTrivia()))
            .WithTriviaFrom(replaced)
            .WithAdditionalAnnotations(Simplifier.Annotation);

    /// <summary><c>expression.ConfigureAwait(false)</c>, parenthesizing the receiver where member access needs it.</summary>
    public static ExpressionSyntax ConfigureAwaitFalse(ExpressionSyntax expression)
    {
        var receiver = expression.WithoutTrivia();
        if (receiver is not (InvocationExpressionSyntax or MemberAccessExpressionSyntax or SimpleNameSyntax
            or ElementAccessExpressionSyntax or ParenthesizedExpressionSyntax or PostfixUnaryExpressionSyntax))
        {
            receiver = SyntaxFactory.ParenthesizedExpression(receiver);
        }
        return SyntaxFactory.InvocationExpression(
                SyntaxFactory.MemberAccessExpression(SyntaxKind.SimpleMemberAccessExpression, receiver, SyntaxFactory.IdentifierName("ConfigureAwait")),
                SyntaxFactory.ArgumentList(SyntaxFactory.SingletonSeparatedList(
                    SyntaxFactory.Argument(SyntaxFactory.LiteralExpression(SyntaxKind.FalseLiteralExpression)))))
            .WithTriviaFrom(expression);
    }
}
