using System.Collections.Generic;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>Walks of an operation tree that stay in the current method: lambdas and local functions run elsewhere.</summary>
internal static class OperationTree
{
    // One walk stack per thread, reused: the walks run thousands of times per compilation (every statement of every
    // async method, every loop), and a fresh stack growing 4, 8, 16... per walk was most of what they allocated.
    // A walk nested in another (a predicate walking a subtree) finds the slot empty and takes a stack of its own.
    [System.ThreadStatic]
    private static Stack<IOperation>? s_spareStack;

    private static Stack<IOperation> RentStack()
    {
        var stack = s_spareStack ?? new Stack<IOperation>(32);
        s_spareStack = null;
        return stack;
    }

    private static void ReturnStack(Stack<IOperation> stack)
    {
        stack.Clear();
        s_spareStack = stack;
    }

    /// <summary>The operation and its descendants, not entering lambdas or local functions (nor subtrees <paramref name="skip"/> rejects).</summary>
    public static IEnumerable<IOperation> SameMethod(IOperation root, System.Func<IOperation, bool>? skip = null)
    {
        var stack = RentStack();
        try
        {
            stack.Push(root);
            while (stack.Count > 0)
            {
                var current = stack.Pop();
                yield return current;
                PushChildren(stack, current, skip);
            }
        }
        finally
        {
            ReturnStack(stack);
        }
    }

    private static void PushChildren(Stack<IOperation> stack, IOperation operation, System.Func<IOperation, bool>? skip)
    {
        foreach (var child in operation.ChildOperations)
        {
            if (child is not (IAnonymousFunctionOperation or ILocalFunctionOperation) && (skip is null || !skip(child)))
            {
                stack.Push(child);
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
        // Asked of every statement of every async method: a plain loop over a reused stack, no iterator.
        var stack = RentStack();
        stack.Push(root);
        var found = false;
        while (stack.Count > 0)
        {
            var current = stack.Pop();
            if (current is IAwaitOperation)
            {
                found = true;
                break;
            }
            PushChildren(stack, current, skip: null);
        }
        ReturnStack(stack);
        return found;
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
