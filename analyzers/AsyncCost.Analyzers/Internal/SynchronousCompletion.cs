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
/// constant true (or absent). On request it also notes which synchronous returns are on a path that has allocated
/// already: the returned value itself, or a statement that runs before it in the same block (a conservative view: an
/// allocation inside a branch or a nested block is forgotten when control leaves it).
/// </summary>
internal sealed class SynchronousCompletion
{
    private readonly ImmutableArray<IOperation>.Builder _returned = ImmutableArray.CreateBuilder<IOperation>();
    private readonly ImmutableArray<IOperation>.Builder _returnedAfterAllocating = ImmutableArray.CreateBuilder<IOperation>();
    private readonly bool _tracksAllocations;
    private bool _pathAllocated;
    private int _completions;
    private int _completionsAfterAllocating;

    private SynchronousCompletion(bool tracksAllocations) => _tracksAllocations = tracksAllocations;

    /// <summary>Some path returns (or falls off the end) without awaiting.</summary>
    public bool Exists { get; private set; }

    /// <summary>The values returned on those paths (empty for Task/ValueTask methods), conversions removed; the arms of
    /// a conditional (<c>?:</c>) whose condition does not await are separate values.</summary>
    public ImmutableArray<IOperation> ReturnedValues => _returned.ToImmutable();

    /// <summary>The subset of <see cref="ReturnedValues"/> whose path has allocated by the time it returns (see
    /// <see cref="HeapAllocations.AllocatesOnEveryPath"/>); empty unless the analysis tracks allocations.</summary>
    public ImmutableArray<IOperation> ReturnedAfterAllocating => _returnedAfterAllocating.ToImmutable();

    /// <summary>Some path completes without awaiting, and every such path (a return, with or without a value, or the
    /// end of the body) has allocated by then; false unless the analysis tracks allocations.</summary>
    public bool EveryCompletionAllocates => _tracksAllocations && Exists && _completions == _completionsAfterAllocating;

    /// <summary>Analyzes a method body (an <see cref="IMethodBodyOperation"/> or its block).</summary>
    public static SynchronousCompletion Analyze(IOperation body, bool tracksAllocations = false)
    {
        var completion = new SynchronousCompletion(tracksAllocations);
        var block = body is IMethodBodyOperation methodBody ? (IOperation?)methodBody.BlockBody ?? methodBody.ExpressionBody : body;
        if (block is not null && completion.CompletesNormallyCore(block))
        {
            completion.Completed(); // falls off the end: what the body allocated on the way still counts
        }
        return completion;
    }

    // True when control can leave the statement at its end without having awaited; a return without an await in
    // its value is recorded (and sets Exists) on the way. What a compound statement allocates inside is forgotten
    // after it (it may have run on another branch).
    private bool CompletesNormally(IOperation statement)
    {
        var allocatedBefore = _pathAllocated;
        var completes = CompletesNormallyCore(statement);
        if (statement is IBlockOperation or IConditionalOperation or ILoopOperation or ISwitchOperation or ITryOperation
            or IUsingOperation or ILockOperation or ILabeledOperation)
        {
            _pathAllocated = allocatedBefore;
        }
        return completes;
    }

    private bool CompletesNormallyCore(IOperation statement)
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
                    Completed();
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
                var allocatedBeforeBranches = _pathAllocated;
                var whenTrue = CompletesNormally(conditional.WhenTrue);
                _pathAllocated = allocatedBeforeBranches;
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
                var switchCompletes = !switchOperation.Cases.Any(c => c.Clauses.Any(clause => clause.CaseKind == CaseKind.Default));
                var allocatedBeforeSwitch = _pathAllocated;
                foreach (var section in switchOperation.Cases)
                {
                    switchCompletes |= section.Body.All(CompletesNormally);
                    _pathAllocated = allocatedBeforeSwitch;
                }
                return switchCompletes;
            case ITryOperation tryOperation:
                // Catch blocks only run after an exception; a finally that awaits makes every path through it await.
                return (tryOperation.Finally is null || !OperationTree.ContainsAwait(tryOperation.Finally)) && CompletesNormally(tryOperation.Body);
            case IUsingOperation usingOperation:
                // The resource is acquired before the body runs: a return inside it comes after that acquisition.
                return !usingOperation.IsAsynchronous && !OperationTree.ContainsAwait(usingOperation.Resources)
                    && NoteAllocation(usingOperation) && CompletesNormally(usingOperation.Body);
            case IUsingDeclarationOperation usingDeclaration:
                return !usingDeclaration.IsAsynchronous && !OperationTree.ContainsAwait(usingDeclaration.DeclarationGroup) && NoteAllocation(usingDeclaration);
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
                return !OperationTree.ContainsAwait(statement) && NoteAllocation(statement);
        }
    }

    // A statement that completes normally: from here on, the path has allocated if it allocates on every run.
    private bool NoteAllocation(IOperation statement)
    {
        if (_tracksAllocations && !_pathAllocated && HeapAllocations.AllocatesOnEveryPath(statement))
        {
            _pathAllocated = true;
        }
        return true;
    }

    // A returned value with no await, or the await-free arms of a conditional whose condition does not await: the
    // cached fast path written as one expression (return _cache.TryGetValue(k, out var v) ? v : await LoadAsync(k);,
    // return _token ?? await RefreshAsync();). Each arm of such a conditional is a value of its own, awaits or not.
    private void RecordSynchronousValues(IOperation value)
    {
        value = ConfigureAwaitCalls.SkipConversions(value);
        switch (value)
        {
            case IConditionalOperation { WhenFalse: { } whenFalse } conditional when !OperationTree.ContainsAwait(conditional.Condition):
                RecordSynchronousValues(conditional.WhenTrue);
                RecordSynchronousValues(whenFalse);
                break;
            case { } plain when !OperationTree.ContainsAwait(plain):
                Record(plain);
                break;
            case ICoalesceOperation coalesce when !OperationTree.ContainsAwait(coalesce.Value):
                Record(ConfigureAwaitCalls.SkipConversions(coalesce.Value));
                break;
        }
    }

    private void Record(IOperation value)
    {
        _returned.Add(value);
        if (Completed(value))
        {
            _returnedAfterAllocating.Add(value);
        }
    }

    // A synchronous completion here (returning the value, if any); whether its path has allocated.
    private bool Completed(IOperation? value = null)
    {
        Exists = true;
        _completions++;
        if (_tracksAllocations && (_pathAllocated || (value is not null && HeapAllocations.AllocatesOnEveryPath(value))))
        {
            _completionsAfterAllocating++;
            return true;
        }
        return false;
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
