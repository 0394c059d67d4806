using System;
using System.Collections.Generic;
using System.Collections.Immutable;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Threading;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>"From <see cref="Position"/> on, in this function and the ones nested in it, <see cref="Task"/> has completed".</summary>
internal sealed class CompletionEvidence
{
    public CompletionEvidence(TaskReference task, IOperation at, bool isReportedWait = false, IOperation? storedCall = null)
    {
        Task = task;
        At = at;
        Position = at.Syntax.Span.End;
        Function = OperationScopes.EnclosingFunction(at);
        IsReportedWait = isReportedWait;
        StoredCall = storedCall;
    }

    public TaskReference Task { get; }
    public IOperation At { get; }
    public int Position { get; }
    public IOperation? Function { get; }

    /// <summary>An earlier blocking call on the task, which speaks for it only where it is itself reported (not guarded).</summary>
    public bool IsReportedWait { get; }

    /// <summary>
    /// A call whose task was stored (<c>var t = Read(false);</c>): evidence only if that call returns a completed
    /// task, which is asked (it may read the callee's body) only when a blocking use of the variable needs it.
    /// </summary>
    public IOperation? StoredCall { get; }
}

/// <summary>What one method body says about its tasks: where each is known complete, and where variables are reassigned.</summary>
internal sealed partial class CompletionFacts
{
    private static readonly string[] CompletionProperties = { "IsCompleted", "IsCompletedSuccessfully", "IsFaulted", "IsCanceled" };
    private readonly BlockingAnalysis _types;
    private readonly List<CompletionEvidence> _evidence = new();
    private readonly List<(ISymbol Variable, int Position)> _assignments = new();
    private readonly Dictionary<ISymbol, ImmutableArray<TaskReference>> _whenAllLocals = new(SymbolEqualityComparer.Default);
    // Events a completion callback sets (`awaiter.OnCompleted(() => done.Set())`), with the tasks whose completion sets them.
    private readonly List<(TaskReference Event, ImmutableArray<TaskReference> Tasks)> _completionSignals = new();
    // Locals holding an awaiter (`var awaiter = t.GetAwaiter();`), with the task behind it.
    private readonly Dictionary<ISymbol, TaskReference> _awaiterLocals = new(SymbolEqualityComparer.Default);
    // Locals holding a task's status (`TaskStatus status = task.Status;`), with the task.
    private readonly Dictionary<ISymbol, TaskReference> _statusLocals = new(SymbolEqualityComparer.Default);
    // Locals holding a task's wait handle (`var handle = ((IAsyncResult)task).AsyncWaitHandle;`), with the task.
    private readonly Dictionary<ISymbol, TaskReference> _waitHandleLocals = new(SymbolEqualityComparer.Default);
    // Each value stored in a local task variable, where; and the locals written some other way (out/ref, deconstruction, ??=).
    private readonly Dictionary<ISymbol, List<(IOperation Value, IOperation At)>> _localStores = new(SymbolEqualityComparer.Default);
    private readonly HashSet<ISymbol> _otherwiseWrittenLocals = new(SymbolEqualityComparer.Default);
    // How deep the store-by-store question nests (`a = b; … b = a;`): past a few levels the answer is "not known".
    [ThreadStatic] private static int t_storeDepth;

    public CompletionFacts(BlockingAnalysis types, IOperation body)
    {
        _types = types;
        foreach (var operation in body.DescendantsAndSelf())
        {
            switch (operation)
            {
                case IAwaitOperation awaitOperation:
                    OnAwait(awaitOperation);
                    break;
                case IInvocationOperation or IPropertyReferenceOperation when BlockingCalls.Classify(operation, types) is { CoversSubjects: true } wait:
                    foreach (var subject in wait.Subjects)
                    {
                        if (subject.Reference is { } reference)
                        {
                            _evidence.Add(new CompletionEvidence(reference, operation, isReportedWait: true));
                        }
                    }
                    break;
                case IInvocationOperation invocation:
                    OnInvocation(invocation);
                    break;
                case IVariableDeclaratorOperation { Initializer.Value: { } value } declarator:
                    OnStore(declarator.Symbol, TaskReference.OfVariable(declarator.Symbol), value, declarator);
                    break;
                case ISimpleAssignmentOperation assignment when TaskReference.Of(assignment.Target) is { } target:
                    OnStore(target.Root, target, assignment.Value, assignment);
                    break;
                case ILocalReferenceOperation { Local: var written } when operation.Parent is IArgumentOperation { Parameter.RefKind: not RefKind.None }
                    or ICompoundAssignmentOperation or ICoalesceAssignmentOperation or IDeconstructionAssignmentOperation or ITupleOperation
                    || operation.Parent is IAddressOfOperation:
                    _otherwiseWrittenLocals.Add(written);
                    break;
            }
        }
    }

    private void OnAwait(IAwaitOperation awaitOperation)
    {
        var awaited = _types.Underlying(awaitOperation.Operation);
        if (awaited is IInvocationOperation whenAll && _types.IsTaskStatic(whenAll.TargetMethod, "WhenAll"))
        {
            foreach (var task in BlockingCalls.TaskArguments(whenAll, _types))
            {
                AddEvidence(task, awaitOperation);
            }
        }
        else
        {
            AddEvidence(new WaitedTask(awaited), awaitOperation);
        }
    }

    // A callback run on completion that sets an event (`awaiter.UnsafeOnCompleted(() => done.Set())`), and a later
    // untimed wait on that event (`done.Wait()`): after the wait, the task has completed.
    private void OnInvocation(IInvocationOperation invocation)
    {
        switch (invocation.TargetMethod.Name)
        {
            case "OnCompleted" or "UnsafeOnCompleted" or "ContinueWith" when invocation.Instance is { } source:
                var tasks = CompletedIn(source);
                foreach (var argument in invocation.Arguments)
                {
                    if (TaskReference.Strip(argument.Value) is IDelegateCreationOperation { Target: IAnonymousFunctionOperation callback })
                    {
                        foreach (var set in callback.Body.Descendants().OfType<IInvocationOperation>())
                        {
                            if (set.TargetMethod.Name == "Set" && TaskReference.Of(set.Instance) is { } signalled && !tasks.IsEmpty)
                            {
                                _completionSignals.Add((signalled, tasks));
                            }
                        }
                    }
                }
                break;
            case "WaitOne" when WaitTimeouts.Of(invocation, _types.TimeSpan) == WaitTimeouts.Kind.None && TaskOfWaitHandle(invocation.Instance) is { } signalledBy:
                _evidence.Add(new CompletionEvidence(signalledBy, invocation));
                break;
            case "Wait" or "WaitOne" when WaitTimeouts.Of(invocation, _types.TimeSpan) == WaitTimeouts.Kind.None && TaskReference.Of(invocation.Instance) is { } waited:
                foreach (var (signalled, completed) in _completionSignals)
                {
                    if (signalled.Equals(waited))
                    {
                        foreach (var task in completed)
                        {
                            _evidence.Add(new CompletionEvidence(task, invocation));
                        }
                    }
                }
                break;
        }
    }

    // The tasks a completion callback registered on `source` proves complete: an awaiter (stored or `t.GetAwaiter()`) and its task, or the antecedent.
    private ImmutableArray<TaskReference> CompletedIn(IOperation source)
    {
        var sourceReference = TaskReference.Of(source);
        var storedAwaiterTask = sourceReference is not null && _awaiterLocals.TryGetValue(sourceReference.Root, out var behind) ? behind : null;
        return new[] { sourceReference, storedAwaiterTask, TaskReference.Of(_types.TaskBehindAwaiter(source)), TaskReference.Of(_types.Underlying(source)) }
            .OfType<TaskReference>()
            .Distinct()
            .ToImmutableArray();
    }

    private void OnStore(ISymbol variable, TaskReference target, IOperation value, IOperation at)
    {
        _assignments.Add((variable, at.Syntax.SpanStart));
        if (variable is ILocalSymbol && target.Equals(TaskReference.OfVariable(variable)))
        {
            if (!_localStores.TryGetValue(variable, out var stores))
            {
                _localStores[variable] = stores = new List<(IOperation Value, IOperation At)>();
            }
            stores.Add((value, at));
        }
        var stripped = TaskReference.Strip(value);
        if (_types.Async.IsCompletedByConstruction(stripped))
        {
            _evidence.Add(new CompletionEvidence(target, at));
        }
        else if (stripped is IInvocationOperation or IAwaitOperation)
        {
            _evidence.Add(new CompletionEvidence(target, at, storedCall: stripped));
        }
        if (variable is ILocalSymbol && stripped is IInvocationOperation invocation && _types.IsTaskStatic(invocation.TargetMethod, "WhenAll"))
        {
            _whenAllLocals[variable] = BlockingCalls.TaskArguments(invocation, _types).Select(t => t.Reference).OfType<TaskReference>().ToImmutableArray();
        }
        if (variable is ILocalSymbol && stripped is IInvocationOperation { TargetMethod.Name: "GetAwaiter" } && TaskReference.Of(_types.TaskBehindAwaiter(stripped)) is { } awaited)
        {
            _awaiterLocals[variable] = awaited;
        }
        if (variable is ILocalSymbol && TaskOfWaitHandle(stripped) is { } signalledBy)
        {
            _waitHandleLocals[variable] = signalledBy;
        }
        if (variable is ILocalSymbol && StatusOf(stripped) is { } task)
        {
            _statusLocals[variable] = task;
        }
    }

    private void AddEvidence(WaitedTask task, IOperation at)
    {
        if (task.Reference is { } reference)
        {
            _evidence.Add(new CompletionEvidence(reference, at));
        }
    }

    // The facts of this body first: "complete by construction" may read the callee's body (and bind it).
    public bool IsKnownComplete(WaitedTask subject, IOperation use) =>
        subject.Reference is { } task && (IsGuarded(task, use) || HasEarlierEvidence(task, use) || HoldsOnlyCompleted(task))
        || !subject.IsCollection && _types.IsCompleteByConstruction(TaskReference.Strip(subject.Operation));

    // A local whose every store is null or a task known complete where it is stored (`if (t.IsCompletedSuccessfully)
    // { winner = t; break; }` … `winner.Result`): whatever path reached the use, it holds no running task.
    private bool HoldsOnlyCompleted(TaskReference task)
    {
        if (task.Root is not ILocalSymbol local || !task.Equals(TaskReference.OfVariable(local))
            || _otherwiseWrittenLocals.Contains(local) || !_localStores.TryGetValue(local, out var stores) || t_storeDepth > 4)
        {
            return false;
        }
        t_storeDepth++;
        try
        {
            return stores.All(store => TaskReference.Strip(store.Value) is { ConstantValue: { HasValue: true, Value: null } } or IDefaultValueOperation
                || IsKnownComplete(new WaitedTask(_types.Underlying(store.Value)), store.At));
        }
        finally
        {
            t_storeDepth--;
        }
    }

    private bool HasEarlierEvidence(TaskReference task, IOperation use)
    {
        var start = use.Syntax.SpanStart;
        foreach (var evidence in _evidence)
        {
            if (evidence.Position <= start
                && IsVisibleFrom(evidence.Function, use)
                && (evidence.Task.Equals(task) || HeldByAwaitedWhenAll(evidence.Task, task))
                && !ReassignedBetween(evidence.Task.Root, evidence.Position, start)
                && !(evidence.IsReportedWait && IsGuarded(evidence.Task, evidence.At))
                && (evidence.StoredCall is null || _types.IsCompleteByConstruction(evidence.StoredCall)))
            {
                return true;
            }
        }
        return false;
    }

    private bool HeldByAwaitedWhenAll(TaskReference awaited, TaskReference task) =>
        _whenAllLocals.TryGetValue(awaited.Root, out var held) && held.Contains(task);

    // CompletionEvidence counts in its own function and in the lambdas and local functions declared inside it.
    private static bool IsVisibleFrom(IOperation? evidenceFunction, IOperation use)
    {
        if (evidenceFunction is null)
        {
            return true;
        }
        for (var current = use.Parent; current is not null; current = current.Parent)
        {
            if (current == evidenceFunction)
            {
                return true;
            }
        }
        return false;
    }

    private bool ReassignedBetween(ISymbol variable, int from, int to)
    {
        foreach (var (assigned, position) in _assignments)
        {
            if (position >= from && position < to && SymbolEqualityComparer.Default.Equals(assigned, variable))
            {
                return true;
            }
        }
        return false;
    }
}
