using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.CompilerServices;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>Walks of an operation tree that stay in the current method: lambdas and local functions run elsewhere.</summary>
internal static class OperationTree
{
    /// <summary>The operation and its descendants, not entering lambdas or local functions (nor subtrees <paramref name="skip"/> rejects).</summary>
    public static IEnumerable<IOperation> SameMethod(IOperation root, Func<IOperation, bool>? skip = null) => new Walk(root, skip);

    // Every rule walks bodies with this, so its step is compiled optimized (see HotPath), which a C# iterator's
    // generated MoveNext could not be. Depth first, each operation before its children, as an iterator would.
    private sealed class Walk(IOperation root, Func<IOperation, bool>? skip) : IEnumerable<IOperation>, IEnumerator<IOperation>
    {
        private Stack<IOperation>? _pending;
        private bool _handedOut;

        public IOperation Current { get; private set; } = null!;

        object IEnumerator.Current => Current;

        // The first enumeration uses this object, as an iterator does; another one gets a fresh walk.
        public IEnumerator<IOperation> GetEnumerator()
        {
            if (_handedOut)
            {
                return new Walk(root, skip).GetEnumerator();
            }
            _handedOut = true;
            return this;
        }

        IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();

        [MethodImpl(HotPath.Optimized)]
        public bool MoveNext()
        {
            if (_pending is null)
            {
                _pending = new Stack<IOperation>();
                _pending.Push(root);
            }
            if (_pending.Count == 0)
            {
                return false;
            }
            Current = _pending.Pop();
            foreach (var child in Current.ChildOperations)
            {
                if (child is not (IAnonymousFunctionOperation or ILocalFunctionOperation) && (skip is null || !skip(child)))
                {
                    _pending.Push(child);
                }
            }
            return true;
        }

        public void Reset() => throw new NotSupportedException();

        public void Dispose()
        {
        }
    }

    /// <summary>
    /// The values a local is given in the member its reference belongs to (its initializer and each plain assignment),
    /// or null where it is also written another way, out of sight of those: by ref or out, in a deconstruction, a
    /// compound or <c>??=</c> assignment, an increment.
    /// </summary>
    public static IReadOnlyList<IOperation>? ValuesGivenTo(ILocalReferenceOperation reference)
    {
        var values = new List<IOperation>();
        foreach (var operation in Root(reference).Descendants())
        {
            switch (operation)
            {
                case IVariableDeclaratorOperation { Initializer.Value: { } value } declarator when SymbolEqualityComparer.Default.Equals(declarator.Symbol, reference.Local):
                    values.Add(value);
                    break;
                case ISimpleAssignmentOperation { Target: ILocalReferenceOperation target, Value: var value } when SymbolEqualityComparer.Default.Equals(target.Local, reference.Local):
                    values.Add(value);
                    break;
                case ILocalReferenceOperation other when SymbolEqualityComparer.Default.Equals(other.Local, reference.Local) && IsWrittenOtherwise(other):
                    return null;
            }
        }
        return values;
    }

    private static bool IsWrittenOtherwise(ILocalReferenceOperation reference)
    {
        IOperation written = reference;
        while (written.Parent is IDeclarationExpressionOperation or ITupleOperation)
        {
            written = written.Parent; // `out var t`, `(t, n) = …`
        }
        return written.Parent switch
        {
            IArgumentOperation { Parameter.RefKind: RefKind.Out or RefKind.Ref } => true,
            IDeconstructionAssignmentOperation deconstruction => deconstruction.Target == written,
            ICompoundAssignmentOperation compound => compound.Target == written,
            ICoalesceAssignmentOperation coalesce => coalesce.Target == written,
            IIncrementOrDecrementOperation => true,
            _ => false,
        };
    }

    /// <summary>
    /// The values an expression can produce, conversions looked through: each arm of a <c>?:</c> or a <c>switch</c>
    /// expression, recursively, and none for a <c>throw</c>, which produces no value.
    /// </summary>
    public static IEnumerable<IOperation> Outcomes(IOperation value)
    {
        switch (TaskReference.Strip(value))
        {
            case IConditionalOperation { WhenFalse: { } whenFalse } choice:
                foreach (var outcome in Outcomes(choice.WhenTrue).Concat(Outcomes(whenFalse)))
                {
                    yield return outcome;
                }
                break;
            case ISwitchExpressionOperation choice:
                foreach (var outcome in choice.Arms.SelectMany(arm => Outcomes(arm.Value)))
                {
                    yield return outcome;
                }
                break;
            case IThrowOperation:
                break;
            case var single:
                yield return single!;
                break;
        }
    }

    /// <summary>The root of the operation's tree: the body of the member it belongs to.</summary>
    [MethodImpl(HotPath.Optimized)]
    public static IOperation Root(IOperation operation)
    {
        while (operation.Parent is { } parent)
        {
            operation = parent;
        }
        return operation;
    }

    /// <summary>An await anywhere in the operation, outside lambdas and local functions.</summary>
    [MethodImpl(HotPath.Optimized)]
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

    /// <summary>The object a call works on: its instance, or an extension method's first argument (<c>client.GetFromJsonAsync(url)</c>); null for a static call.</summary>
    public static IOperation? ReceiverOf(IInvocationOperation call) =>
        call.TargetMethod.IsExtensionMethod && call.Arguments.Length > 0 ? call.Arguments[0].Value : call.Instance;

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
