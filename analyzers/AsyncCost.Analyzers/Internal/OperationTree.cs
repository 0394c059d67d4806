using System.Collections.Generic;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>Walks of an operation tree that stay in the current method: lambdas and local functions run elsewhere.</summary>
internal static class OperationTree
{
    /// <summary>The operation and its descendants, not entering lambdas or local functions (nor subtrees <paramref name="skip"/> rejects).</summary>
    public static IEnumerable<IOperation> SameMethod(IOperation root, System.Func<IOperation, bool>? skip = null)
    {
        var stack = new Stack<IOperation>();
        stack.Push(root);
        while (stack.Count > 0)
        {
            var current = stack.Pop();
            yield return current;
            foreach (var child in current.ChildOperations)
            {
                if (child is not (IAnonymousFunctionOperation or ILocalFunctionOperation) && (skip is null || !skip(child)))
                {
                    stack.Push(child);
                }
            }
        }
    }

    /// <summary>The root of the operation's tree: the body of the member it belongs to.</summary>
    public static IOperation Root(IOperation operation)
    {
        while (operation.Parent is { } parent)
        {
            operation = parent;
        }
        return operation;
    }

    /// <summary>An await anywhere in the operation, outside lambdas and local functions.</summary>
    public static bool ContainsAwait(IOperation root)
    {
        foreach (var operation in SameMethod(root))
        {
            if (operation is IAwaitOperation)
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>The local, parameter, field or property an operation reads or writes directly, or null.</summary>
    public static ISymbol? ReferencedSymbol(IOperation operation) => operation switch
    {
        ILocalReferenceOperation local => local.Local,
        IParameterReferenceOperation parameter => parameter.Parameter,
        IFieldReferenceOperation field => field.Field,
        IPropertyReferenceOperation property => property.Property,
        _ => null,
    };

    /// <summary>The symbols an operation references, outside lambdas and local functions.</summary>
    public static IEnumerable<ISymbol> ReferencedSymbols(IOperation root)
    {
        foreach (var operation in SameMethod(root))
        {
            if (ReferencedSymbol(operation) is { } symbol)
            {
                yield return symbol;
            }
        }
    }
}
