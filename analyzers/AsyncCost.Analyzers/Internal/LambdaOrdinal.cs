using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The ordinal the C# compiler gives a lambda within its top-level member: the k in <c>&lt;Run&gt;b__3_k</c>
/// (<c>&lt;Run&gt;b__k</c> inside a display class), which is all the runtime sees of a lambda.
/// </summary>
/// <remarks>
/// The compiler numbers a member's lambdas and local functions together while walking its scope tree: the functions
/// declared directly in a scope first, in source order, then each nested scope in source order. A scope is a function
/// body or a block or statement that declares locals (the compiler's temporaries included), so a lambda inside a
/// foreach is numbered after a later lambda of the enclosing block. Syntax alone cannot always tell whether a
/// statement or expression carries temporaries (an object initializer, '?.', a switch expression...); when that
/// decides the order, the ordinal is unknown (null) rather than guessed. Query expressions hide lambdas, so a member
/// with one has no known ordinals either.
/// </remarks>
internal static class LambdaOrdinal
{
    private enum Scope
    {
        None,
        Uncertain,
        Definite,
    }

    /// <summary>The compiler's ordinal of <paramref name="function"/> (a lambda, anonymous method or local function) within <paramref name="memberSyntax"/>, or null when it cannot be known from source.</summary>
    /// <remarks>Lambdas converted to expression trees take ordinals too (checked against emitted code), so syntax is enough.</remarks>
    public static int? Of(SyntaxNode function, SyntaxNode memberSyntax)
    {
        var functions = new List<SyntaxNode>();
        // Top-level statements: the member is the compilation unit, but only its global statements are the body.
        foreach (var node in memberSyntax.DescendantNodes(n => n == memberSyntax || n is not MemberDeclarationSyntax || n is GlobalStatementSyntax))
        {
            if (node is QueryExpressionSyntax)
            {
                return null;
            }
            if (IsFunction(node))
            {
                functions.Add(node);
            }
        }

        var ordinal = 0;
        foreach (var other in functions)
        {
            if (other == function)
            {
                continue;
            }
            var before = NumberedBefore(other, function);
            if (before is null)
            {
                return null;
            }
            if (before == true)
            {
                ordinal++;
            }
        }
        return ordinal;
    }

    private static bool IsFunction(SyntaxNode node) => node is AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax;

    /// <summary>Whether the compiler numbers <paramref name="other"/> before <paramref name="target"/>; null when syntax cannot tell.</summary>
    private static bool? NumberedBefore(SyntaxNode other, SyntaxNode target)
    {
        if (other.Span.Contains(target.Span))
        {
            return true; // a function is numbered before the functions in its body
        }
        if (target.Span.Contains(other.Span))
        {
            return false;
        }
        var (first, second) = other.SpanStart < target.SpanStart ? (other, target) : (target, other);
        var common = first.Parent!.AncestorsAndSelf().First(a => a.Span.Contains(second.Span));
        var secondFirst = (PathScope(first, common), PathScope(second, common)) switch
        {
            // The later function is numbered first only when it sits directly in a scope whose nested scope holds the earlier one.
            (Scope.None, _) => false,
            (_, Scope.Definite) => false,
            (Scope.Definite, Scope.None) => true,
            _ => (bool?)null,
        };
        return secondFirst is null ? null : (other == first) != secondFirst.Value;
    }

    /// <summary>The strongest scope between <paramref name="function"/> and <paramref name="common"/> (both excluded).</summary>
    private static Scope PathScope(SyntaxNode function, SyntaxNode common)
    {
        var result = Scope.None;
        for (var node = function.Parent; node is not null && node != common; node = node.Parent)
        {
            var scope = Classify(node);
            if (scope > result)
            {
                result = scope;
            }
        }
        return result;
    }

    private static Scope Classify(SyntaxNode node) => node switch
    {
        AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax => Scope.Definite,
        // Lowered into blocks with the loop variable, enumerator, resource or lock temporaries.
        CommonForEachStatementSyntax or UsingStatementSyntax or LockStatementSyntax or FixedStatementSyntax => Scope.Definite,
        ForStatementSyntax { Declaration: not null } => Scope.Definite,
        CatchClauseSyntax { Declaration.Identifier.RawKind: not 0 } => Scope.Definite,
        BlockSyntax block => BlockScope(block),
        LocalDeclarationStatementSyntax declaration => declaration.UsingKeyword.RawKind == 0 ? Scope.None : Scope.Uncertain,
        // Statements that are not scopes of their own unless they declare expression variables.
        IfStatementSyntax or ElseClauseSyntax or WhileStatementSyntax or DoStatementSyntax or ForStatementSyntax or TryStatementSyntax
            or FinallyClauseSyntax or CheckedStatementSyntax or UnsafeStatementSyntax or ExpressionStatementSyntax
            or ReturnStatementSyntax or ThrowStatementSyntax or YieldStatementSyntax or GlobalStatementSyntax
            => DeclaresVariables(node) ? Scope.Uncertain : Scope.None,
        // Expressions the compiler lowers without temporaries.
        ArgumentSyntax argument => argument.NameColon is null ? Scope.None : Scope.Uncertain, // named arguments out of order take temporaries
        ArgumentListSyntax or InvocationExpressionSyntax or ParenthesizedExpressionSyntax or CastExpressionSyntax
            or AwaitExpressionSyntax or ConditionalExpressionSyntax or ArrowExpressionClauseSyntax or EqualsValueClauseSyntax
            or VariableDeclaratorSyntax or VariableDeclarationSyntax or ArrayCreationExpressionSyntax or ImplicitArrayCreationExpressionSyntax
            => Scope.None,
        MemberAccessExpressionSyntax member => member.IsKind(SyntaxKind.SimpleMemberAccessExpression) ? Scope.None : Scope.Uncertain,
        AssignmentExpressionSyntax assignment => assignment.IsKind(SyntaxKind.SimpleAssignmentExpression) ? Scope.None : Scope.Uncertain,
        InitializerExpressionSyntax initializer => initializer.IsKind(SyntaxKind.ArrayInitializerExpression) ? Scope.None : Scope.Uncertain,
        BaseObjectCreationExpressionSyntax creation => creation.Initializer is null ? Scope.None : Scope.Uncertain,
        _ => Scope.Uncertain,
    };

    private static Scope BlockScope(BlockSyntax block)
    {
        if (block.Statements.Any(s => s is LocalDeclarationStatementSyntax { IsConst: false }))
        {
            return Scope.Definite;
        }
        return DeclaresVariables(block) ? Scope.Uncertain : Scope.None;
    }

    /// <summary>Whether the node declares a variable outside its nested blocks and functions (out var, patterns, deconstruction, constants).</summary>
    private static bool DeclaresVariables(SyntaxNode node) =>
        node.DescendantNodes(n => n == node || n is not (BlockSyntax or AnonymousFunctionExpressionSyntax or LocalFunctionStatementSyntax))
            .Any(n => n is SingleVariableDesignationSyntax or VariableDeclaratorSyntax);
}
