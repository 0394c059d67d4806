using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// Whether an async method can complete without awaiting: some path from its start that returns (or falls off the
/// end) passing no await — a cache hit, an "if initialized return" guard. Throwing paths and catch blocks do not
/// count. One structural walk of the method's operations (no control flow graph: building one per async method
/// was the costliest part of the rules), conservative where control flow gets irregular: a goto ends the path it is on,
/// break and continue hand control to their loop or switch, and a loop may run zero times unless its condition is
/// constant true (or absent).
/// </summary>
internal sealed class SynchronousCompletion
{
    private readonly ImmutableArray<IOperation>.Builder _returned = ImmutableArray.CreateBuilder<IOperation>();

    private SynchronousCompletion()
    {
    }

    /// <summary>Some path returns (or falls off the end) without awaiting.</summary>
    public bool Exists { get; private set; }

    /// <summary>The values returned on those paths (empty for Task/ValueTask methods), conversions removed.</summary>
    public ImmutableArray<IOperation> ReturnedValues => _returned.ToImmutable();

    /// <summary>Analyzes a method body (an <see cref="IMethodBodyOperation"/> or its block).</summary>
    public static SynchronousCompletion Analyze(IOperation body)
    {
        var completion = new SynchronousCompletion();
        var block = body is IMethodBodyOperation methodBody ? (IOperation?)methodBody.BlockBody ?? methodBody.ExpressionBody : body;
        if (block is not null)
        {
            completion.Exists = completion.CompletesNormally(block) | completion.Exists;
        }
        return completion;
    }

    // True when control can leave the statement at its end without having awaited; a return without an await in
    // its value is recorded (and sets Exists) on the way.
    private bool CompletesNormally(IOperation statement)
    {
        switch (statement)
        {
            case IBlockOperation block:
                foreach (var operation in block.Operations)
                {
                    if (!CompletesNormally(operation))
                    {
                        return false;
                    }
                }
                return true;
            case IReturnOperation { Kind: OperationKind.Return } returned:
                if (returned.ReturnedValue is null)
                {
                    Exists = true;
                }
                else
                {
                    RecordSynchronousValues(returned.ReturnedValue);
                }
                return false;
            case IConditionalOperation conditional:
                if (OperationTree.ContainsAwait(conditional.Condition))
                {
                    return false;
                }
                var whenTrue = CompletesNormally(conditional.WhenTrue);
                var whenFalse = conditional.WhenFalse is null || CompletesNormally(conditional.WhenFalse);
                return whenTrue || whenFalse;
            case IWhileLoopOperation { ConditionIsTop: false } doLoop:
                return CompletesNormally(doLoop.Body) && (doLoop.Condition is null || !OperationTree.ContainsAwait(doLoop.Condition));
            case ILoopOperation loop:
                if (LoopControlAwaits(loop))
                {
                    return false;
                }
                _ = CompletesNormally(loop.Body); // records the synchronous returns inside the body
                return LoopMayRunZeroTimes(loop);
            case ISwitchOperation switchOperation:
                if (OperationTree.ContainsAwait(switchOperation.Value))
                {
                    return false;
                }
                var completes = !switchOperation.Cases.Any(c => c.Clauses.Any(clause => clause.CaseKind == CaseKind.Default));
                foreach (var section in switchOperation.Cases)
                {
                    completes |= section.Body.All(CompletesNormally);
                }
                return completes;
            case ITryOperation tryOperation:
                // Catch blocks only run after an exception; a finally that awaits makes every path through it await.
                return (tryOperation.Finally is null || !OperationTree.ContainsAwait(tryOperation.Finally)) && CompletesNormally(tryOperation.Body);
            case IUsingOperation usingOperation:
                return !usingOperation.IsAsynchronous && !OperationTree.ContainsAwait(usingOperation.Resources) && CompletesNormally(usingOperation.Body);
            case IUsingDeclarationOperation usingDeclaration:
                return !usingDeclaration.IsAsynchronous && !OperationTree.ContainsAwait(usingDeclaration.DeclarationGroup);
            case ILockOperation lockOperation:
                return !OperationTree.ContainsAwait(lockOperation.LockedValue) && CompletesNormally(lockOperation.Body);
            case ILabeledOperation labeled:
                return labeled.Operation is null || CompletesNormally(labeled.Operation);
            case IBranchOperation { BranchKind: BranchKind.Break or BranchKind.Continue }:
                return true; // leaves the loop or switch, which decides whether control goes on
            case IBranchOperation:
            case IExpressionStatementOperation { Operation: IThrowOperation }:
            case IThrowOperation:
                return false;
            case ILocalFunctionOperation:
                return true;
            default:
                return !OperationTree.ContainsAwait(statement);
        }
    }

    // A returned value with no await, or the await-free arms of a conditional whose condition does not await: the
    // cached fast path written as one expression (return _cache.TryGetValue(k, out var v) ? v : await LoadAsync(k);,
    // return _token ?? await RefreshAsync();).
    private void RecordSynchronousValues(IOperation value)
    {
        value = ConfigureAwaitCalls.SkipConversions(value);
        if (!OperationTree.ContainsAwait(value))
        {
            Exists = true;
            _returned.Add(value);
            return;
        }
        switch (value)
        {
            case IConditionalOperation { WhenFalse: { } whenFalse } conditional when !OperationTree.ContainsAwait(conditional.Condition):
                RecordSynchronousValues(conditional.WhenTrue);
                RecordSynchronousValues(whenFalse);
                break;
            case ICoalesceOperation coalesce when !OperationTree.ContainsAwait(coalesce.Value):
                Exists = true;
                _returned.Add(ConfigureAwaitCalls.SkipConversions(coalesce.Value));
                break;
        }
    }

    private static bool LoopMayRunZeroTimes(ILoopOperation loop) => loop switch
    {
        IForLoopOperation forLoop => forLoop.Condition is null ? false : forLoop.Condition.ConstantValue is not { HasValue: true, Value: true },
        IWhileLoopOperation whileLoop => whileLoop.Condition is not null && whileLoop.Condition.ConstantValue is not { HasValue: true, Value: true },
        _ => true,
    };

    private static bool LoopControlAwaits(ILoopOperation loop) => loop switch
    {
        IForLoopOperation forLoop => forLoop.Before.Any(OperationTree.ContainsAwait) || (forLoop.Condition is not null && OperationTree.ContainsAwait(forLoop.Condition)),
        IWhileLoopOperation whileLoop => whileLoop.Condition is not null && OperationTree.ContainsAwait(whileLoop.Condition),
        IForEachLoopOperation forEach => forEach.IsAsynchronous || OperationTree.ContainsAwait(forEach.Collection),
        _ => false,
    };
}
