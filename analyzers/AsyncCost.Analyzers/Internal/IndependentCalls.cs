using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>What one awaited call of a loop says about the loop's iterations.</summary>
internal enum CallEvidence
{
    /// <summary>Nothing either way: a task already running, a batch, a call that does not use the iteration's data.</summary>
    None,

    /// <summary>Independent: a static call with the iteration's arguments that keeps no shared state.</summary>
    StaticCall,

    /// <summary>Independent: a call on the iteration's own object (its element, or an object it creates).</summary>
    OwnObject,

    /// <summary>Independent: a call on a shared object of a type known to be safe for concurrent use.</summary>
    SafeSharedClient,

    /// <summary>Ordered: the calls share an object that is not known to be safe, or their order is their contract.</summary>
    Ordered,
}

/// <summary>
/// What proves that one iteration's awaited call is independent of the other iterations' (so that the calls could
/// run concurrently), or that the calls are ordered. Independent: a static call with the iteration's arguments, a
/// call on the iteration's own object, a call on a shared object of a type known to be safe for concurrent use.
/// Ordered: a call through this, a delegate, teardown, a handler dispatched to each element in turn, one ordered
/// resource (a writer, a stream, a connection) or a changeable object handed to every iteration's call, work handed
/// over as a lambda that does one of these. Only positive evidence counts: anything else is <see cref="CallEvidence.Ordered"/>.
/// </summary>
internal sealed class IndependentCalls(LoopIteration iteration, WellKnownAsyncTypes types, CalleeWork callees, AnalyzerOptions options)
{
    // Calling these on each element in turn dispatches to handlers (event invocators, subscribers): order is their contract.
    private static readonly string[] DispatchNames = ["Invoke", "InvokeAsync", "Handle", "HandleAsync"];

    // Calls whose order is the point: releasing resources (children before parents, or the reverse).
    private static readonly string[] OrderedTeardownNames = ["DisposeAsync", "CloseAsync"];

    // Awaiting these in a loop is already the batched form the rule recommends.
    private static readonly string[] BatchingNames = ["WhenAll", "WhenAny", "WhenEach"];

    private ConcurrencySafeTypes? _safeTypes;
    private HashSet<IOperation>? _awaitedCalls;

    /// <summary>DisposeAsync or CloseAsync: ordered release of what an object owns.</summary>
    public static bool IsTeardown(string methodName) => System.Array.IndexOf(OrderedTeardownNames, methodName) >= 0;

    /// <summary>Task.WhenAll, WhenAny or WhenEach: awaiting one is already the batched form.</summary>
    public static bool IsBatch(IMethodSymbol method, WellKnownAsyncTypes types) =>
        System.Array.IndexOf(BatchingNames, method.Name) >= 0 && SymbolEqualityComparer.Default.Equals(method.ContainingType, types.Task);

    /// <summary>The objects a call works with: its instance and its arguments.</summary>
    public static IEnumerable<IOperation> Inputs(IInvocationOperation invocation)
    {
        if (invocation.Instance is { } instance)
        {
            yield return instance;
        }
        foreach (var argument in invocation.Arguments)
        {
            yield return argument.Value;
        }
    }

    // Which types are safe is the loop's file's setting, read once per loop and only when a shared object needs it.
    private ConcurrencySafeTypes SafeTypes =>
        _safeTypes ??= ConcurrencySafeTypes.For(options, iteration.Loop.Syntax.SyntaxTree, RuleIds.AwaitInLoop);

    /// <summary>What the awaited operation (ConfigureAwait looked through) says about the iterations.</summary>
    public CallEvidence Classify(IOperation awaited)
    {
        if (awaited is not IInvocationOperation call || !types.IsTaskLike(call.Type))
        {
            return CallEvidence.None; // a task already running (await t, await pending[i]) or a custom awaitable
        }
        var method = call.TargetMethod;
        if ((call.Instance is { } running && types.IsTaskLike(running.Type)) || IsBatch(method, types))
        {
            return CallEvidence.None; // t.WaitAsync(ct): already started; await Task.WhenAll(batch): already the batched form
        }
        if (IsTeardown(method.Name) || method.MethodKind == MethodKind.DelegateInvoke)
        {
            return CallEvidence.Ordered; // ordered release; a delegate whose work the analyzer cannot see
        }
        var receiver = OperationTree.ReceiverOf(call);
        foreach (var argument in call.Arguments)
        {
            if (argument.Value != receiver
                && !OrderedResources.IsReadOnlyInput(argument, method)
                && (IsSharedOrderedResource(argument.Value)
                    || (OrderedResources.Is(argument.Value.Type) && !iteration.Owns(argument.Value))))
            {
                return CallEvidence.Ordered; // one writer, stream, buffer... handed to every iteration's call
            }
        }
        if (!DelegatedWorkIsIndependent(call))
        {
            return CallEvidence.Ordered;
        }
        var usesIterationData = iteration.ReachesCall(call);
        if (receiver is null)
        {
            if (StaticCallState.IsShared(method, call.SemanticModel))
            {
                return CallEvidence.Ordered;
            }
            return usesIterationData ? CallEvidence.StaticCall : CallEvidence.None;
        }
        receiver = ConfigureAwaitCalls.SkipConversions(receiver);
        if (receiver is IInstanceReferenceOperation)
        {
            return CallEvidence.Ordered; // this.M() or M(): the object's own state, often serialized by its own lock
        }
        if (iteration.Owns(receiver))
        {
            // Each element called in turn through a virtual or interface member is a handler or callback: running
            // them in order is their contract. An object the iteration creates is not such a dispatch.
            // A stream, socket or connection of the element's own is I/O, not a handler (fan-out writes to each).
            var dispatched = (method.ContainingType?.TypeKind == TypeKind.Interface || method.IsAbstract || method.IsVirtual || method.IsOverride)
                    && !OrderedResources.Is(receiver.Type)
                || System.Array.IndexOf(DispatchNames, method.Name) >= 0;
            if ((dispatched && iteration.IsElement(receiver)) || ForwardsToSharedService(method))
            {
                return CallEvidence.Ordered;
            }
            return callees.OnlyWaitsForStartedWork(method) ? CallEvidence.None : CallEvidence.OwnObject;
        }
        if (SafeTypes.Contains(receiver.Type))
        {
            return usesIterationData ? CallEvidence.SafeSharedClient : CallEvidence.None;
        }
        return CallEvidence.Ordered; // one object shared by every iteration, not known to be safe for concurrent use
    }

    // An element's own method of this compilation whose body hands the work to one object every element shares, a
    // static member not known to be safe for concurrent use (item.SaveAsync() => Repository.SaveAsync(this)): the
    // iterations meet in that object (one database, one queue), so they are not independent work.
    private bool ForwardsToSharedService(IMethodSymbol method) =>
        callees.StaticServicesOf(method).Any(service => !SafeTypes.Contains(service));

    // Work handed to the call as a lambda or method group (Task.Run(() => Process(i))) runs concurrently once the
    // calls do: it must not go through this, a delegate, or a shared object not known to be safe either.
    private bool DelegatedWorkIsIndependent(IInvocationOperation call)
    {
        foreach (var argument in call.Arguments)
        {
            if (ConfigureAwaitCalls.SkipConversions(argument.Value) is not IDelegateCreationOperation { Target: var target })
            {
                continue;
            }
            if (target is IMethodReferenceOperation { Instance: { } instance })
            {
                return instance is not IInstanceReferenceOperation && iteration.Owns(instance);
            }
            if (target is not IAnonymousFunctionOperation lambda)
            {
                continue;
            }
            var ownLocals = new HashSet<ISymbol>(lambda.Body.DescendantsAndSelf().OfType<IVariableDeclaratorOperation>().Select(d => (ISymbol)d.Symbol), SymbolEqualityComparer.Default);
            ownLocals.UnionWith(lambda.Symbol.Parameters);
            foreach (var inner in lambda.Body.DescendantsAndSelf().OfType<IInvocationOperation>())
            {
                var innerMethod = inner.TargetMethod;
                var innerReceiver = OperationTree.ReceiverOf(inner);
                if (innerReceiver is null)
                {
                    continue;
                }
                innerReceiver = ConfigureAwaitCalls.SkipConversions(innerReceiver);
                if (innerReceiver is IInstanceReferenceOperation)
                {
                    return false;
                }
                if (OperationTree.ReferencedSymbol(innerReceiver) is { } symbol && !ownLocals.Contains(symbol) && !iteration.Varying.Contains(symbol)
                    && (innerMethod.MethodKind == MethodKind.DelegateInvoke || !SafeTypes.Contains(innerReceiver.Type)))
                {
                    return false;
                }
            }
        }
        return true;
    }

    // An argument is one stream, writer, buffer, connection... shared by all iterations (or the method's own object).
    // A member of a shared object hands the call that object's state, unless the member's value is what the call gets
    // and needs nothing more: an immutable value (a string or JsonSerializerOptions field of this), or an object safe
    // for concurrent use (a shared HttpClient handed to a static helper) that the loop does not also change in turn.
    private bool IsSharedOrderedResource(IOperation input)
    {
        for (IOperation? current = ConfigureAwaitCalls.SkipConversions(input); current is not null;)
        {
            if (current is IInstanceReferenceOperation)
            {
                return true; // this handed to every call: the object's own state, as for a call through this
            }
            if (OrderedResources.IsImmutable(current.Type))
            {
                return false;
            }
            if (OperationTree.ReferencedSymbol(current) is { } symbol && !iteration.Varying.Contains(symbol)
                && (OrderedResources.Is(current.Type) || OrderedResources.CanBeChanged(current.Type) || IsUsedSynchronously(symbol)))
            {
                return true;
            }
            if (SafeTypes.Contains(current.Type))
            {
                return false;
            }
            current = current is IMemberReferenceOperation { Instance: { } owner } ? ConfigureAwaitCalls.SkipConversions(owner) : null;
        }
        return false;
    }

    // The loop also calls it, or sets its members, without awaiting: the awaited calls and those steps share its state.
    private bool IsUsedSynchronously(ISymbol symbol)
    {
        var awaitedCalls = _awaitedCalls ??= new HashSet<IOperation>(iteration.Operations.OfType<IAwaitOperation>().Select(iteration.Awaited));
        bool Is(IOperation? operation) =>
            operation is not null && SymbolEqualityComparer.Default.Equals(OperationTree.ReferencedSymbol(ConfigureAwaitCalls.SkipConversions(operation)), symbol);
        foreach (var operation in iteration.Operations)
        {
            switch (operation)
            {
                case IInvocationOperation invocation when !awaitedCalls.Contains(invocation) && Inputs(invocation).Any(Is):
                case IAssignmentOperation { Target: IMemberReferenceOperation { Instance: var owner } } when Is(owner):
                    return true;
            }
        }
        return false;
    }
}
