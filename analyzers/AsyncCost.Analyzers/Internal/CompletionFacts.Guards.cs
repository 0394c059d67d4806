using System;
using System.Collections.Immutable;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>The checks around a wait that prove its task complete: enclosing conditions, status switches, continuations.</summary>
internal sealed partial class CompletionFacts
{
    // Enclosing checks: `if (t.IsCompleted) … t.Result`, `t.IsCompletedSuccessfully ? t.Result : …`,
    // `if (!t.IsCompleted) return …;` or `if (!t.Wait(timeout)) throw …;` before the use, `case TaskStatus.RanToCompletion:`,
    // and the antecedent of a continuation.
    private bool IsGuarded(TaskReference task, IOperation use)
    {
        if (EnclosingConditions.Of(use, crossFunctions: true).Any(known => EnclosingConditions.Implies(known.Condition, known.Value, (leaf, value) => ImpliesComplete(leaf, task, value))))
        {
            return true;
        }
        for (IOperation child = use, parent = use.Parent!; parent is not null; child = parent, parent = parent.Parent!)
        {
            switch (parent)
            {
                case ISwitchCaseOperation { Parent: ISwitchOperation { Value: var status } } section when section.Clauses.All(IsFinalStatusClause) && IsStatusOf(status, task):
                case ISwitchExpressionArmOperation { Parent: ISwitchExpressionOperation { Value: var status2 } } arm when child == arm.Value && IsFinalStatusPattern(arm.Pattern) && IsStatusOf(status2, task):
                case IAnonymousFunctionOperation lambda when IsContinuationOf(lambda, task):
                    return true;
            }
        }
        return false;
    }

    /// <summary>Whether a condition operand having <paramref name="value"/> means the task has completed.</summary>
    private bool ImpliesComplete(IOperation leaf, TaskReference task, bool value)
    {
        switch (leaf)
        {
            case IPropertyReferenceOperation property when value && Array.IndexOf(CompletionProperties, property.Property.Name) >= 0:
                return task.Equals(TaskReference.Of(property.Instance));
            // `t.Wait(timeout)` returned true: the task completed within the timeout.
            case IInvocationOperation { TargetMethod: { Name: "Wait", IsStatic: false, ReturnType.SpecialType: SpecialType.System_Boolean } method, Instance: { } waited }
                when value && _types.Async.IsTask(method.ContainingType):
                return task.Equals(TaskReference.Of(_types.Underlying(waited)));
            // `handle.WaitOne(timeout)` returned true, where the handle is the task's own AsyncWaitHandle.
            case IInvocationOperation { TargetMethod.Name: "WaitOne", Instance: { } handle } when value:
                return task.Equals(TaskOfWaitHandle(handle));
            // `TryWait(t)` returned true, where the helper is `bool TryWait(Task t) => t.Wait(timeout);`.
            case IInvocationOperation { TargetMethod.ReturnType.SpecialType: SpecialType.System_Boolean } helper when value:
                return helper.Arguments.FirstOrDefault(a => task.Equals(TaskReference.Of(_types.Underlying(a.Value)))) is { Parameter: { } passedTo }
                    && SymbolEqualityComparer.Default.Equals(_types.TimedWaitParameter(helper.TargetMethod), passedTo.OriginalDefinition);
            // `WaitHandle.WaitAny(new[] { ((IAsyncResult)task).AsyncWaitHandle, other }) == 0`: the handle at that index was set.
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals } indexOf when value && SignalledByWaitAny(indexOf) is { } signalled:
                return task.Equals(signalled);
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals } comparison:
                var equal = (comparison.OperatorKind == BinaryOperatorKind.Equals) == value;
                return equal && (IsFinalStatus(comparison.RightOperand) && IsStatusOf(comparison.LeftOperand, task)
                    || IsFinalStatus(comparison.LeftOperand) && IsStatusOf(comparison.RightOperand, task)
                    || IsSameAsComplete(comparison.LeftOperand, comparison.RightOperand, comparison, task)
                    || IsSameAsComplete(comparison.RightOperand, comparison.LeftOperand, comparison, task))
                    || !equal && (IsTheOtherRaced(comparison.LeftOperand, comparison.RightOperand, task)
                        || IsTheOtherRaced(comparison.RightOperand, comparison.LeftOperand, task));
            case IIsPatternOperation isPattern:
                return PatternImplies(isPattern.Value, isPattern.Pattern, task, value);
            default:
                return false;
        }
    }

    // `await Task.WhenAny(t, timeout) == t`, or `winner != t` with `winner` holding that await: the same task as one
    // known complete there (the task WhenAny handed back completed).
    private bool IsSameAsComplete(IOperation operand, IOperation other, IOperation at, TaskReference task) =>
        _types.Async.IsTaskLike(TaskReference.Strip(operand)!.Type?.OriginalDefinition)
        && task.Equals(TaskReference.Of(_types.Underlying(operand)))
        && IsKnownComplete(new WaitedTask(_types.Underlying(other)), at);

    // `var winner = await Task.WhenAny(receiving, closing); if (winner == closing) break; … receiving.Result`: of two
    // tasks raced, the winner is one of them and completed; where it is not the one compared with, it is the other.
    private bool IsTheOtherRaced(IOperation winner, IOperation loser, TaskReference task)
    {
        if (TaskReference.Strip(winner) is not ILocalReferenceOperation local || OperationTree.ValuesGivenTo(local) is not { Count: 1 } given
            || TaskReference.Strip(given[0]) is not IAwaitOperation { Operation: var awaited }
            || ConfigureAwaitCalls.Unwrap(awaited, _types.Async) is not IInvocationOperation whenAny || !_types.IsTaskStatic(whenAny.TargetMethod, "WhenAny")
            || Raced(whenAny) is not { Length: 2 } raced || raced[0].IsCollection || raced[1].IsCollection)
        {
            return false;
        }
        var (first, second) = (raced[0], raced[1]);
        var compared = TaskReference.Of(_types.Underlying(loser));
        return compared is not null
            && (compared.Equals(first.Reference) && task.Equals(second.Reference) || compared.Equals(second.Reference) && task.Equals(first.Reference));
    }

    // WhenAny(a, b) binds to its two-task overload, or to the params one (an array or span of the tasks).
    private ImmutableArray<WaitedTask> Raced(IInvocationOperation whenAny) =>
        whenAny.Arguments.Length == 2 && whenAny.Arguments.All(a => _types.Async.IsTaskLike(a.Parameter?.Type.OriginalDefinition))
            ? whenAny.Arguments.Select(a => new WaitedTask(_types.Underlying(a.Value))).ToImmutableArray()
            : BlockingCalls.TaskArguments(whenAny, _types);

    // `t is { IsCompletedSuccessfully: true }`, `t is not { IsCompleted: false }`, `t.Status is TaskStatus.RanToCompletion`.
    private bool PatternImplies(IOperation input, IPatternOperation pattern, TaskReference task, bool matched)
    {
        switch (pattern)
        {
            case INegatedPatternOperation negated:
                return PatternImplies(input, negated.Pattern, task, !matched);
            case IConstantPatternOperation constant when matched && IsFinalStatusPattern(constant):
                return IsStatusOf(input, task);
            case IRecursivePatternOperation recursive when matched && task.Equals(TaskReference.Of(input)):
                return recursive.PropertySubpatterns.Any(sub =>
                    sub.Member is IPropertyReferenceOperation member
                    && Array.IndexOf(CompletionProperties, member.Property.Name) >= 0
                    && sub.Pattern is IConstantPatternOperation { Value.ConstantValue: { HasValue: true, Value: true } });
            default:
                return false;
        }
    }

    // The task whose AsyncWaitHandle this is: `((IAsyncResult)task).AsyncWaitHandle`, or a local that holds it.
    private TaskReference? TaskOfWaitHandle(IOperation? handle) => TaskReference.Strip(handle) switch
    {
        ILocalReferenceOperation { Local: var local } when _waitHandleLocals.TryGetValue(local, out var held)
            && _assignments.Count(a => SymbolEqualityComparer.Default.Equals(a.Variable, local)) == 1 => held,
        IPropertyReferenceOperation { Property: { Name: "AsyncWaitHandle", ContainingType.Name: nameof(IAsyncResult) }, Instance: { } result }
            when _types.Async.IsTask(TaskReference.Strip(result)!.Type) => TaskReference.Of(_types.Underlying(result)),
        _ => null,
    };

    private TaskReference? SignalledByWaitAny(IBinaryOperation comparison)
    {
        var (call, index) = (TaskReference.Strip(comparison.LeftOperand), comparison.RightOperand.ConstantValue) is ({ } left, { HasValue: true, Value: int right })
            ? (left, right)
            : (TaskReference.Strip(comparison.RightOperand)!, comparison.LeftOperand.ConstantValue is { HasValue: true, Value: int leftIndex } ? leftIndex : -1);
        return call is IInvocationOperation { TargetMethod: { Name: "WaitAny", IsStatic: true, ContainingType.Name: "WaitHandle" } waitAny } invocation
            && index >= 0 && invocation.Arguments.Length > 0
            && BlockingCalls.Elements(invocation.Arguments[0].Value)?.ElementAtOrDefault(index) is { } handle
                ? TaskOfWaitHandle(handle)
                : null;
    }

    // `t.Status`, or a local that holds it and is never assigned again.
    private bool IsStatusOf(IOperation operation, TaskReference task)
    {
        var stripped = TaskReference.Strip(operation);
        if (stripped is ILocalReferenceOperation { Local: var local } && _statusLocals.TryGetValue(local, out var held))
        {
            return held.Equals(task) && _assignments.Count(a => SymbolEqualityComparer.Default.Equals(a.Variable, local)) == 1;
        }
        return task.Equals(StatusOf(stripped));
    }

    private static TaskReference? StatusOf(IOperation? operation) =>
        operation is IPropertyReferenceOperation { Property.Name: "Status" } status ? TaskReference.Of(status.Instance) : null;

    /// <summary>Whether the body assigns the variable (a parameter no longer holds what the caller passed).</summary>
    public bool IsAssigned(ISymbol variable) => _assignments.Any(a => SymbolEqualityComparer.Default.Equals(a.Variable, variable));

    // RanToCompletion = 5, Canceled = 6, Faulted = 7: the statuses of a completed task.
    private bool IsFinalStatus(IOperation operation)
    {
        var constant = TaskReference.Strip(operation)!;
        return constant.ConstantValue is { HasValue: true, Value: int and >= 5 } && SymbolEqualityComparer.Default.Equals(constant.Type, _types.TaskStatus);
    }

    private bool IsFinalStatusPattern(IPatternOperation pattern) => pattern is IConstantPatternOperation constant && IsFinalStatus(constant.Value);

    private bool IsFinalStatusClause(ICaseClauseOperation clause) => clause switch
    {
        ISingleValueCaseClauseOperation single => IsFinalStatus(single.Value),
        IPatternCaseClauseOperation { Guard: null } patternClause => IsFinalStatusPattern(patternClause.Pattern),
        _ => false,
    };

    // Inside `antecedent.ContinueWith(a => …)` both `a` and `antecedent` have completed; so has the awaiter (and its
    // task) in `awaiter.OnCompleted(() => …)`, and the tasks handed to TaskFactory.ContinueWhenAll/ContinueWhenAny's continuation.
    private bool IsContinuationOf(IAnonymousFunctionOperation lambda, TaskReference task)
    {
        if (lambda.Parent?.Parent is not IArgumentOperation { Parent: IInvocationOperation invocation })
        {
            return false;
        }
        var method = invocation.TargetMethod;
        if (method.Name is "OnCompleted" or "UnsafeOnCompleted" && invocation.Instance is { } awaiter)
        {
            return CompletedIn(awaiter).Contains(task);
        }
        if (lambda.Symbol.Parameters.Length == 0)
        {
            return false;
        }
        var isParameter = SymbolEqualityComparer.Default.Equals(task.Root, lambda.Symbol.Parameters[0]);
        if (method.Name == "ContinueWith" && _types.Async.IsTask(method.ContainingType))
        {
            return isParameter || task.Equals(TaskReference.Of(invocation.Instance));
        }
        return isParameter && method.Name is "ContinueWhenAll" or "ContinueWhenAny" && _types.IsTaskFactory(method.ContainingType);
    }
}
