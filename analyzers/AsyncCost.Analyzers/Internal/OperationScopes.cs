using System;
using System.Collections.Generic;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;
using System.Runtime.CompilerServices;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// Where an operation runs: its function (lambdas and local functions are functions of their own: code in
/// them runs when they are invoked, not where they are declared) and the loop that repeats it.
/// </summary>
internal static class OperationScopes
{
    /// <summary>The nearest lambda or local function around the operation, or null when it is in the member body itself.</summary>
    [MethodImpl(HotPath.Optimized)]
    public static IOperation? EnclosingFunction(IOperation operation)
    {
        for (var current = operation.Parent; current is not null; current = current.Parent)
        {
            if (current is IAnonymousFunctionOperation or ILocalFunctionOperation)
            {
                return current;
            }
        }
        return null;
    }

    /// <summary>The method that runs the operation: the lambda or local function around it, else the containing member.</summary>
    public static IMethodSymbol? FunctionSymbol(IOperation operation, ISymbol containingSymbol) => EnclosingFunction(operation) switch
    {
        IAnonymousFunctionOperation lambda => lambda.Symbol,
        ILocalFunctionOperation local => local.Symbol,
        _ => containingSymbol as IMethodSymbol,
    };

    /// <summary>
    /// The innermost loop of the same function whose body contains the operation (so it runs once per iteration),
    /// with <paramref name="pathFromBody"/> the chain of operations from the loop body down to the operation.
    /// Null when no loop body of the same function contains it (a foreach collection or a for initializer is not the body).
    /// </summary>
    public static ILoopOperation? EnclosingLoop(IOperation operation, out IReadOnlyList<IOperation> pathFromBody)
    {
        var path = new List<IOperation> { operation };
        for (IOperation? child = operation, parent = operation.Parent; parent is not null; child = parent, parent = parent.Parent)
        {
            if (parent is IAnonymousFunctionOperation or ILocalFunctionOperation)
            {
                break;
            }
            if (parent is ILoopOperation loop && loop.Body == child)
            {
                path.Reverse();
                pathFromBody = path;
                return loop;
            }
            path.Add(parent);
        }
        pathFromBody = Array.Empty<IOperation>();
        return null;
    }

    /// <summary>
    /// The innermost loop of the same function that runs the operation once per iteration: its body holds it, or its
    /// <c>while</c> or <c>for</c> condition does (<c>while (await Task.WhenAny(ReadAsync(), closing) != closing)</c>).
    /// </summary>
    public static ILoopOperation? RepeatingLoop(IOperation operation)
    {
        for (IOperation? child = operation, parent = operation.Parent; parent is not null; child = parent, parent = parent.Parent)
        {
            switch (parent)
            {
                case IAnonymousFunctionOperation or ILocalFunctionOperation:
                    return null;
                case ILoopOperation loop when loop.Body == child
                    || loop is IWhileLoopOperation { Condition: var condition } && condition == child
                    || loop is IForLoopOperation { Condition: var forCondition } && forCondition == child:
                    return loop;
            }
        }
        return null;
    }

    /// <summary>True when an ancestor of the operation within its own function is a <typeparamref name="T"/>.</summary>
    [MethodImpl(HotPath.Optimized)]
    public static bool IsInside<T>(IOperation operation)
        where T : IOperation
    {
        for (var current = operation.Parent; current is not null; current = current.Parent)
        {
            if (current is T)
            {
                return true;
            }
            if (current is IAnonymousFunctionOperation or ILocalFunctionOperation)
            {
                return false;
            }
        }
        return false;
    }

    /// <summary>
    /// Whether the operation is code that never runs as written: inside <c>nameof</c>, or inside a lambda converted to an
    /// expression tree (a mocking library's <c>Setup(x =&gt; x.Get(task.Result))</c>, a LINQ provider's query), which
    /// is data handed to a library, not a call made here.
    /// </summary>
    public static bool IsNeverRun(IOperation operation)
    {
        for (var current = operation.Parent; current is not null; current = current.Parent)
        {
            switch (current)
            {
                case INameOfOperation:
                case IAnonymousFunctionOperation { Parent: { } conversion } when IsExpressionTree(conversion.Type):
                    return true;
            }
        }
        return false;
    }

    // System.Linq.Expressions.Expression<TDelegate>, or LambdaExpression and its bases a lambda converts to.
    private static bool IsExpressionTree(ITypeSymbol? type) =>
        type is INamedTypeSymbol { Name: "Expression" or "LambdaExpression" } named
        && named.ContainingNamespace?.ToDisplayString() == "System.Linq.Expressions";
}
