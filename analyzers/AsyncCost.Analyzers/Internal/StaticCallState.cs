using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// A call without a receiver shares no object between iterations, unless its body keeps state outside its
/// arguments: a static method of this compilation that writes a mutable static field of its type (every call moves
/// shared state on: a counter, a cache being filled), or a local function that reads or writes the enclosing method's
/// locals, parameters or this (a writer it writes to, a connection it sends on: like a call through this). Either one
/// orders the calls; otherwise a static call with the iteration's arguments is independent work.
/// </summary>
internal static class StaticCallState
{
    /// <summary>The receiverless method keeps state that every call shares.</summary>
    public static bool IsShared(IMethodSymbol method, SemanticModel? model) => WritesStaticState(method) || CapturesOuterState(method, model);

    private static bool CapturesOuterState(IMethodSymbol method, SemanticModel? model)
    {
        if (method.MethodKind != MethodKind.LocalFunction || method.IsStatic || model is null)
        {
            return false;
        }
        foreach (var reference in method.DeclaringSyntaxReferences)
        {
            if (reference.GetSyntax() is not LocalFunctionStatementSyntax { } declaration || declaration.SyntaxTree != model.SyntaxTree)
            {
                continue;
            }
            SyntaxNode? body = (SyntaxNode?)declaration.Body ?? declaration.ExpressionBody?.Expression;
            if (body is null)
            {
                continue;
            }
            var flow = model.AnalyzeDataFlow(body);
            if (flow is not { Succeeded: true })
            {
                return true;
            }
            foreach (var symbol in flow.ReadInside.Concat(flow.WrittenInside))
            {
                if (!flow.VariablesDeclared.Contains(symbol, SymbolEqualityComparer.Default)
                    && !SymbolEqualityComparer.Default.Equals(symbol.ContainingSymbol, method))
                {
                    return true;
                }
            }
        }
        return false;
    }

    private static bool WritesStaticState(IMethodSymbol method)
    {
        var type = method.ContainingType;
        if (type is null || !method.DeclaringSyntaxReferences.Any())
        {
            return false;
        }
        var mutableFields = new HashSet<string>(type.GetMembers().OfType<IFieldSymbol>()
            .Where(f => f.IsStatic && !f.IsConst && !f.IsReadOnly && !f.IsImplicitlyDeclared).Select(f => f.Name));
        if (mutableFields.Count == 0)
        {
            return false;
        }
        foreach (var reference in method.OriginalDefinition.DeclaringSyntaxReferences)
        {
            foreach (var node in reference.GetSyntax().DescendantNodes())
            {
                var target = node switch
                {
                    AssignmentExpressionSyntax assignment => assignment.Left,
                    PostfixUnaryExpressionSyntax postfix => postfix.Operand,
                    PrefixUnaryExpressionSyntax { RawKind: (int)SyntaxKind.PreIncrementExpression or (int)SyntaxKind.PreDecrementExpression } prefix => prefix.Operand,
                    ArgumentSyntax { RefKindKeyword.RawKind: (int)SyntaxKind.RefKeyword } argument => argument.Expression,
                    _ => null,
                };
                var name = target switch
                {
                    IdentifierNameSyntax identifier => identifier.Identifier.ValueText,
                    MemberAccessExpressionSyntax member => member.Name.Identifier.ValueText,
                    _ => null,
                };
                if (name is not null && mutableFields.Contains(name))
                {
                    return true;
                }
            }
        }
        return false;
    }
}
