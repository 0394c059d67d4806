using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// Signs that a loop's iterations are ordered by what its awaits return, whatever the calls are: the awaited value (or
/// anything derived from it) drives the loop's condition, feeds a later iteration's await, decides an early exit, or is
/// kept where the last one wins; or a value one iteration leaves feeds the next one's await. Any of them means the
/// iterations cannot run concurrently, however independent each call is on its own.
/// </summary>
internal static class AwaitedValueOrder
{
    /// <summary>The awaited values, or values carried between iterations, order the loop's iterations.</summary>
    public static bool OrdersIterations(LoopIteration iteration, List<IAwaitOperation> awaits)
    {
        var tainted = AwaitTaintedSymbols(iteration);
        return DependOnAwaitedValues(iteration, awaits, tainted) || CarriesValuesIntoAwaits(iteration, awaits) || KeepsOnlyTheLastResult(iteration, tainted);
    }

    // Symbols holding data that came from an await in this loop, followed through assignments, declarations and
    // calls that store into a receiver (results.Add(await F(x)) taints results), to a fixed point.
    private static HashSet<ISymbol> AwaitTaintedSymbols(LoopIteration iteration)
    {
        var tainted = new HashSet<ISymbol>(SymbolEqualityComparer.Default);
        var flows = new List<Flow>();
        void AddFlow(IOperation value, ISymbol[] targets)
        {
            if (targets.Length == 0)
            {
                return;
            }
            // Each value is walked once; the fixed point below only compares symbol sets.
            var awaits = false;
            var reads = new List<ISymbol>();
            foreach (var op in OperationTree.SameMethod(value))
            {
                awaits |= op is IAwaitOperation;
                if (OperationTree.ReferencedSymbol(op) is { } symbol)
                {
                    reads.Add(symbol);
                }
            }
            if (awaits || reads.Count > 0)
            {
                flows.Add(new Flow(awaits, reads, targets));
            }
        }

        foreach (var operation in iteration.Operations)
        {
            switch (operation)
            {
                case IAssignmentOperation assignment:
                    AddFlow(assignment.Value, AssignedSymbols(assignment.Target).ToArray());
                    break;
                case IVariableDeclaratorOperation { Initializer: { } initializer } declarator:
                    AddFlow(initializer.Value, [declarator.Symbol]);
                    break;
                case IInvocationOperation { Instance: { } instance } invocation when OperationTree.ReferencedSymbol(instance) is { } receiver:
                    foreach (var argument in invocation.Arguments)
                    {
                        AddFlow(argument.Value, [receiver]);
                    }
                    break;
            }
        }
        for (var changed = true; changed;)
        {
            changed = false;
            foreach (var flow in flows)
            {
                if (flow.Awaits || flow.Reads.Exists(tainted.Contains))
                {
                    foreach (var target in flow.Targets)
                    {
                        changed |= tainted.Add(target);
                    }
                }
            }
        }
        return tainted;
    }

    // What an assignment writes: the variable, field or property, and for a slot (results[i], map[key], item.Size)
    // the collection or object that holds it, not the index that picks it.
    private static IEnumerable<ISymbol> AssignedSymbols(IOperation target)
    {
        for (IOperation? current = ConfigureAwaitCalls.SkipConversions(target); current is not null;)
        {
            if (OperationTree.ReferencedSymbol(current) is { } symbol)
            {
                yield return symbol;
            }
            current = current switch
            {
                IArrayElementReferenceOperation element => ConfigureAwaitCalls.SkipConversions(element.ArrayReference),
                IMemberReferenceOperation { Instance: { } owner } => ConfigureAwaitCalls.SkipConversions(owner),
                _ => null,
            };
        }
    }

    // A value flowing into variables: whether it awaits, and what it reads. A class, not a tuple: a list of structs
    // is JIT-compiled again for each struct in every fresh compiler process.
    private sealed class Flow(bool awaits, List<ISymbol> reads, ISymbol[] targets)
    {
        public bool Awaits { get; } = awaits;
        public List<ISymbol> Reads { get; } = reads;
        public ISymbol[] Targets { get; } = targets;
    }

    private static bool DependOnAwaitedValues(LoopIteration iteration, List<IAwaitOperation> awaits, HashSet<ISymbol> tainted)
    {
        var loop = iteration.Loop;
        bool ReadsTainted(IOperation operation) =>
            OperationTree.SameMethod(operation).Any(op => op is IAwaitOperation || (OperationTree.ReferencedSymbol(op) is { } s && tainted.Contains(s)));

        // Shared objects handed to an awaited call, which may change them: state.Handled after await h.Handle(e, state).
        var handed = new HashSet<ISymbol>(SymbolEqualityComparer.Default);
        foreach (var input in awaits.Select(iteration.Awaited).OfType<IInvocationOperation>().SelectMany(IndependentCalls.Inputs))
        {
            var value = ConfigureAwaitCalls.SkipConversions(input);
            if (OperationTree.ReferencedSymbol(value) is { } symbol && !iteration.Varying.Contains(symbol)
                && value.Type is { IsReferenceType: true, SpecialType: not SpecialType.System_String, TypeKind: not TypeKind.Delegate })
            {
                handed.Add(symbol);
            }
        }
        bool ReadsAwaitedState(IOperation operation) =>
            ReadsTainted(operation) || OperationTree.ReferencedSymbols(operation).Any(handed.Contains);

        // The loop's control reads awaited data: while (await r.WaitToReadAsync()), paging until the token is null.
        var controls = loop switch
        {
            IWhileLoopOperation whileLoop => new[] { whileLoop.Condition },
            IForLoopOperation forLoop => new[] { forLoop.Condition },
            _ => [],
        };
        if (controls.Any(c => c is not null && ReadsTainted(c)))
        {
            return true;
        }

        // An await takes its input from an earlier iteration's awaited result (a continuation token). A foreach
        // element is fresh in each iteration: a result stored on it (item.Size = await …) stays in its iteration.
        var freshPerIteration = loop is IForEachLoopOperation ? loop.Locals : ImmutableArray<ILocalSymbol>.Empty;
        if (awaits.Any(a => OperationTree.ReferencedSymbols(a.Operation).Any(s => tainted.Contains(s) && !iteration.BodyLocals.Contains(s) && !freshPerIteration.Contains(s, SymbolEqualityComparer.Default))))
        {
            return true;
        }

        // The loop stops on an awaited value (sequential search, retry until success) or hands each result to a
        // consumer that may stop early (yield return).
        foreach (var operation in OperationTree.SameMethod(loop.Body))
        {
            if (IsExitFromLoop(loop, operation) && ExitDependsOnAwaitedValues(loop, operation, ReadsAwaitedState))
            {
                return true;
            }
        }
        return false;
    }

    private static bool IsExitFromLoop(ILoopOperation loop, IOperation operation) => operation switch
    {
        IReturnOperation => true,
        IBranchOperation { BranchKind: BranchKind.Break } branch => SymbolEqualityComparer.Default.Equals(branch.Target, loop.ExitLabel),
        IBranchOperation { BranchKind: BranchKind.GoTo } => true,
        _ => false,
    };

    private static bool ExitDependsOnAwaitedValues(ILoopOperation loop, IOperation exit, System.Func<IOperation, bool> readsTainted)
    {
        if (exit is IReturnOperation { Kind: OperationKind.YieldReturn } || (exit is IReturnOperation { ReturnedValue: { } value } && readsTainted(value)))
        {
            return true;
        }
        var guarded = false;
        for (IOperation? child = exit, parent = exit.Parent; parent is not null && child != loop.Body; child = parent, parent = parent.Parent)
        {
            switch (parent)
            {
                case IConditionalOperation conditional when child != conditional.Condition:
                    guarded = true;
                    if (readsTainted(conditional.Condition))
                    {
                        return true;
                    }
                    break;
                case ISwitchOperation switchOperation:
                    guarded = true;
                    if (readsTainted(switchOperation.Value))
                    {
                        return true;
                    }
                    break;
                case ITryOperation tryOperation when child == tryOperation.Body && OperationTree.ContainsAwait(tryOperation.Body):
                    return true; // retry until the awaited call succeeds
            }
        }
        return !guarded; // an unconditional exit: the loop does not really iterate over independent work
    }

    // A value one iteration leaves for the next one's await (len = buf.ReadInt32(); ... await buf.Skip(len)):
    // written in the loop, declared outside it, and not a counter that only steps.
    private static bool CarriesValuesIntoAwaits(LoopIteration iteration, List<IAwaitOperation> awaits)
    {
        var carried = new HashSet<ISymbol>(SymbolEqualityComparer.Default);
        foreach (var operation in iteration.Operations)
        {
            if (operation is not (IIncrementOrDecrementOperation or ICompoundAssignmentOperation { Value.ConstantValue.HasValue: true })
                && LoopIteration.WriteTarget(operation) is { } target
                && OperationTree.ReferencedSymbol(target) is { } symbol
                && !iteration.BodyLocals.Contains(symbol)
                && !iteration.Loop.Locals.Contains(symbol, SymbolEqualityComparer.Default))
            {
                carried.Add(symbol);
            }
        }
        return carried.Count > 0 && awaits.Any(a => OperationTree.ReferencedSymbols(a.Operation).Any(carried.Contains));
    }

    // An awaited result (or a value derived from it) assigned where the next iteration overwrites it: a shared
    // variable, field or property (last = await F(x)): the last call to finish would win, so the order matters.
    // Fine: a local of the iteration, a per-iteration slot (results[i] = …, map[key] = …, item.Size = …), a
    // numeric reduction (total += …), a collection the results are added to.
    private static bool KeepsOnlyTheLastResult(LoopIteration iteration, HashSet<ISymbol> tainted)
    {
        foreach (var operation in iteration.Operations)
        {
            if (operation is not IAssignmentOperation assignment
                || !OperationTree.SameMethod(assignment.Value).Any(op => op is IAwaitOperation || (OperationTree.ReferencedSymbol(op) is { } s && tainted.Contains(s))))
            {
                continue;
            }
            var target = ConfigureAwaitCalls.SkipConversions(assignment.Target);
            var perIteration = assignment switch
            {
                ICompoundAssignmentOperation compound => IsNumericOrBoolean(compound.Target.Type),
                ICoalesceAssignmentOperation => false,
                _ => target is ILocalReferenceOperation local
                    ? iteration.BodyLocals.Contains(local.Local) || iteration.Loop.Locals.Contains(local.Local, SymbolEqualityComparer.Default)
                    : iteration.Owns(target),
            };
            if (!perIteration)
            {
                return true;
            }
        }
        return false;
    }

    private static bool IsNumericOrBoolean(ITypeSymbol? type) =>
        type?.SpecialType is SpecialType.System_Boolean or SpecialType.System_Byte or SpecialType.System_SByte or SpecialType.System_Int16
            or SpecialType.System_UInt16 or SpecialType.System_Int32 or SpecialType.System_UInt32 or SpecialType.System_Int64
            or SpecialType.System_UInt64 or SpecialType.System_Single or SpecialType.System_Double or SpecialType.System_Decimal;
}
