using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The sync/async mode idiom: one implementation serves a synchronous and an asynchronous API, a mode parameter
/// choosing <c>await stream.ReadAsync(…)</c> or <c>stream.Read(…)</c>: a <c>bool async</c> flag, or an enum such as
/// <c>IOBehavior { Synchronous, Asynchronous }</c>. The sync API calls it in the synchronous mode (<c>false</c>,
/// <c>IOBehavior.Synchronous</c>) and blocks on a task that, by construction, has completed; the async body holds
/// blocking calls in the arm that runs in the synchronous mode. Both are the idiom working as meant, not sync-over-async.
/// </summary>
internal sealed partial class AsyncFlag
{
    // Calls forwarding the flag are followed this deep; beyond, the forwarded callee is trusted to follow the idiom.
    private const int MaxDepth = 4;

    private readonly WellKnownAsyncTypes _types;
    private readonly MethodBodies _bodies;
    // Keyed by depth too: a callee without a body is trusted when handed the flag, and the walk stops at MaxDepth, so
    // the answer depends on the depth; one key per depth keeps it from depending on which caller asked first.
    private readonly ConcurrentDictionary<Judgement, bool> _synchronousIn = new();
    private readonly ConcurrentDictionary<IMethodSymbol, bool> _returnsOnlyCompleted = new(SymbolEqualityComparer.Default);

    public AsyncFlag(WellKnownAsyncTypes types, MethodBodies bodies)
    {
        _types = types;
        _bodies = bodies;
    }

    /// <summary>
    /// Whether the operation is the synchronous arm of a split on a mode parameter of its own function
    /// (<c>if (async) await X.WaitAsync(); else X.Wait();</c>, <c>if (!async) …</c>, <c>async ? await … : …</c>,
    /// <c>if (io == IOBehavior.Asynchronous) await …; else …</c>): it runs only in one mode, and each of the
    /// function's awaits runs only in the other or awaits a call handed the mode (<c>await LoadAsync(async, ct)</c>,
    /// the idiom's way down).
    /// </summary>
    public static bool IsSynchronousArm(IOperation operation, IMethodSymbol function)
    {
        var body = OperationScopes.EnclosingFunction(operation) ?? OperationTree.Root(operation);
        List<IAwaitOperation>? awaits = null;
        foreach (var parameter in function.Parameters)
        {
            if (!IsModeType(parameter.Type))
            {
                continue;
            }
            foreach (var polarity in Polarity.Candidates(body, parameter))
            {
                var flag = Flag.In(body, parameter, polarity);
                if (!flag.RunsOnlyWhen(operation, false))
                {
                    continue;
                }
                awaits ??= OperationTree.SameMethod(body).OfType<IAwaitOperation>().ToList();
                if (awaits.Count > 0 && awaits.All(awaitOperation => flag.RunsOnlyWhen(awaitOperation, true) || flag.IsArgumentOf(awaitOperation.Operation) is not null))
                {
                    return true;
                }
            }
        }
        return false;
    }

    private static bool IsModeType(ITypeSymbol type) => type.SpecialType == SpecialType.System_Boolean || type.TypeKind == TypeKind.Enum;

    /// <summary>
    /// Whether the operation runs only in a synchronous mode that the code names: where a <c>bool</c> named for
    /// asynchrony (<c>async</c>, <c>isAsync</c>, <c>_async</c>, <c>useAsync</c>) is false, or one named for
    /// synchrony (<c>IsSynchronous</c>, <c>sync</c>, <c>runSynchronously</c>) is true — a parameter, local, field or
    /// property, checked by an enclosing condition or an early exit. The name is the evidence: such code is the
    /// synchronous API's path of a library that serves both, where there is no caller to await.
    /// </summary>
    public static bool RunsInSynchronousMode(IOperation operation) =>
        EnclosingConditions.Of(operation, crossFunctions: false).Any(known => EnclosingConditions.Implies(known.Condition, known.Value, IsNamedSynchronousMode));

    // `!async`, `IsSynchronous`, `io == IOBehavior.Synchronous`, `io != IOBehavior.Asynchronous`, `io is Mode.Sync`.
    private static bool IsNamedSynchronousMode(IOperation leaf, bool value)
    {
        if (leaf.Type?.SpecialType == SpecialType.System_Boolean && OperationTree.ReferencedSymbol(leaf) is { } symbol)
        {
            return value ? IsSynchronyName(symbol.Name) : IsAsynchronyName(symbol.Name);
        }
        return ComparedWithConstant(leaf, value) is { } comparison
            && comparison.Subject.Type?.TypeKind == TypeKind.Enum
            && TaskReference.Strip(comparison.Constant) is IFieldReferenceOperation { Field: var member }
            && (comparison.Equal ? IsSynchronyName(member.Name) : IsAsynchronyName(member.Name));
    }

    /// <summary>
    /// A leaf condition that compares an operand with a constant (<c>io == IOBehavior.Synchronous</c>,
    /// <c>io != X</c>, <c>io is X</c>, <c>io is not X</c>), and whether, with the leaf having <paramref name="value"/>,
    /// the operand equals that constant.
    /// </summary>
    private static (IOperation Subject, IOperation Constant, bool Equal)? ComparedWithConstant(IOperation leaf, bool value)
    {
        switch (leaf)
        {
            case IBinaryOperation { OperatorKind: BinaryOperatorKind.Equals or BinaryOperatorKind.NotEquals } comparison:
                var equal = (comparison.OperatorKind == BinaryOperatorKind.Equals) == value;
                return IsConstant(comparison.RightOperand) ? (comparison.LeftOperand, comparison.RightOperand, equal)
                    : IsConstant(comparison.LeftOperand) ? (comparison.RightOperand, comparison.LeftOperand, equal)
                    : null;
            case IIsPatternOperation { Pattern: IConstantPatternOperation { Value: var constant } } pattern when IsConstant(constant):
                return (pattern.Value, constant, value);
            case IIsPatternOperation { Pattern: INegatedPatternOperation { Pattern: IConstantPatternOperation { Value: var negated } } } pattern when IsConstant(negated):
                return (pattern.Value, negated, !value);
            default:
                return null;
        }
    }

    private static bool IsConstant(IOperation operation) => operation.ConstantValue.HasValue;

    /// <summary>The name of a <c>bool async</c> flag: <c>async</c>, <c>isAsync</c>, <c>_async</c>, <c>useAsync</c>, <c>asynchronous</c>.</summary>
    public static bool IsAsynchronyName(string name) => IsModeName(name, "async", "asynchronous");

    private static bool IsSynchronyName(string name) => IsModeName(name, "sync", "synchronous", "synchronously");

    private static bool IsModeName(string name, params string[] modes)
    {
        var bare = name.TrimStart('_').ToLowerInvariant();
        foreach (var prefix in new[] { "", "is", "use", "run", "m_" })
        {
            if (bare.StartsWith(prefix, StringComparison.Ordinal) && Array.IndexOf(modes, bare.Substring(prefix.Length)) >= 0)
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>
    /// Whether the call passes a constant mode (<c>false</c> to a <c>bool</c> parameter, an enum member such as
    /// <c>IOBehavior.Synchronous</c>) to a method that, in that mode, completes without suspending: each of its awaits
    /// sits where the mode is another, or awaits a call that hands the mode on to a method that does the same.
    /// </summary>
    public bool CompletesSynchronously(IInvocationOperation call)
    {
        foreach (var argument in call.Arguments)
        {
            if (argument.Parameter is { } parameter
                && IsModeType(parameter.Type)
                && TaskReference.Strip(argument.Value)!.ConstantValue is { HasValue: true, Value: { } passed }
                && Polarity.Passed(parameter.Type, passed) is { } polarity
                && IsSynchronousIn(call.TargetMethod, parameter.Ordinal, polarity, depth: 0, new HashSet<IMethodSymbol>(SymbolEqualityComparer.Default)))
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>
    /// Whether a method that is not async returns only completed tasks or null: <c>Task&lt;bool&gt;? TryRead()</c>
    /// that hands back a cached <c>Task.FromResult</c> when the answer is at hand, and null otherwise.
    /// </summary>
    public bool ReturnsOnlyCompleted(IMethodSymbol method)
    {
        method = method.OriginalDefinition;
        return !method.IsAsync && _types.IsTaskLike(method.ReturnType) && _returnsOnlyCompleted.GetOrAdd(method, m =>
            _bodies.Of(m) is { } body
            && OperationTree.SameMethod(body).OfType<IReturnOperation>().All(returned => returned.ReturnedValue is { } value && IsCompletedOrNull(value)));
    }

    private bool IsCompletedOrNull(IOperation value) =>
        OperationTree.Outcomes(value).All(outcome => outcome switch
        {
            _ when outcome.ConstantValue is { HasValue: true, Value: null } => true,
            IFieldReferenceOperation { Field: { IsReadOnly: true, IsStatic: true } field } =>
                _bodies.InitializerOf(field) is { } initializer && _types.IsCompletedByConstruction(TaskReference.Strip(initializer)),
            _ => _types.IsCompletedByConstruction(outcome),
        });

    private bool IsSynchronousIn(IMethodSymbol method, int ordinal, Polarity polarity, int depth, HashSet<IMethodSymbol> visiting)
    {
        method = method.OriginalDefinition.PartialImplementationPart ?? method.OriginalDefinition;
        if (!visiting.Add(method))
        {
            return true; // recursion: the cycle adds no await of its own
        }
        try
        {
            var key = new Judgement(method, ordinal, polarity, depth);
            return _synchronousIn.TryGetValue(key, out var known)
                ? known
                : _synchronousIn.GetOrAdd(key, Judge(method, ordinal, polarity, depth, visiting));
        }
        finally
        {
            visiting.Remove(method);
        }
    }

    private bool Judge(IMethodSymbol method, int ordinal, Polarity polarity, int depth, HashSet<IMethodSymbol> visiting)
    {
        if (_bodies.Of(method) is not { } body)
        {
            // Abstract, interface or compiled elsewhere: a method handed the mode by one that follows the idiom is
            // taken to follow it too; called directly, the names are the evidence (`bool async`, `IOBehavior.Synchronous`).
            return depth > 0 || polarity.IsNamedSynchronous(method.Parameters[ordinal]);
        }
        var flag = Flag.In(body, method.Parameters[ordinal], polarity);
        if (method.IsAsync)
        {
            foreach (var operation in OperationTree.SameMethod(body))
            {
                var suspends = operation switch
                {
                    IAwaitOperation awaitOperation => !ForwardsFlag(awaitOperation.Operation, flag, depth, visiting),
                    IForEachLoopOperation { IsAsynchronous: true } or IUsingOperation { IsAsynchronous: true } or IUsingDeclarationOperation { IsAsynchronous: true } => true,
                    _ => false,
                };
                if (suspends && !flag.RunsOnlyWhen(operation, true))
                {
                    return false;
                }
            }
            return true;
        }
        // A method returning the task of another: every task it returns must complete synchronously in the mode.
        return OperationTree.SameMethod(body).OfType<IReturnOperation>()
            .All(returned => returned.ReturnedValue is not { } value || ReturnsCompleted(value, flag, depth, visiting));
    }

    private bool ReturnsCompleted(IOperation value, Flag flag, int depth, HashSet<IMethodSymbol> visiting) =>
        OperationTree.Outcomes(value).All(outcome => outcome switch
        {
            // `var result = new ValueTask<string>(text); …; return result;`
            ILocalReferenceOperation local when !flag.Refers(local) && IsGivenOnlyCompleted(local, flag, depth, visiting) => true,
            _ => _types.IsCompletedByConstruction(outcome) || ForwardsFlag(outcome, flag, depth, visiting) || flag.RunsOnlyWhen(outcome, true),
        });

    // Each value the local is given; one that is (or may be) another local is not followed, so locals given each other
    // (`a = ready ? a : Fetch()`) end the search instead of going round.
    private bool IsGivenOnlyCompleted(ILocalReferenceOperation local, Flag flag, int depth, HashSet<IMethodSymbol> visiting) =>
        OperationTree.ValuesGivenTo(local) is { Count: > 0 } values
        && values.All(value => !OperationTree.Outcomes(value).Any(outcome => outcome is ILocalReferenceOperation) && ReturnsCompleted(value, flag, depth, visiting));

    // `await Read(async, …)` or `return ReadAsync(async, …)`: a call handed the flag itself, to a method that completes
    // synchronously for false (ConfigureAwait, conversions looked through).
    private bool ForwardsFlag(IOperation awaited, Flag flag, int depth, HashSet<IMethodSymbol> visiting) =>
        flag.IsArgumentOf(awaited) is { } forwarded
        && (depth >= MaxDepth || IsSynchronousIn(forwarded.Call.TargetMethod, forwarded.Ordinal, flag.Polarity, depth + 1, visiting));

    /// <summary>
    /// The key of a judgement: a method, the ordinal of its mode parameter, the mode asked about and the depth it was
    /// asked at. A class, not a tuple: a dictionary keyed by a struct is JIT-compiled again for it in every fresh compiler process.
    /// </summary>
    private sealed class Judgement(IMethodSymbol method, int ordinal, Polarity polarity, int depth) : IEquatable<Judgement>
    {
        private readonly IMethodSymbol _method = method;
        private readonly int _ordinal = ordinal;
        private readonly Polarity _polarity = polarity;
        private readonly int _depth = depth;

        public bool Equals(Judgement? other) =>
            other is not null && other._ordinal == _ordinal && other._depth == _depth && other._polarity.Equals(_polarity)
            && SymbolEqualityComparer.Default.Equals(other._method, _method);

        public override bool Equals(object? obj) => Equals(obj as Judgement);

        public override int GetHashCode() => ((SymbolEqualityComparer.Default.GetHashCode(_method) * 31 + _ordinal) * 31 + _depth) * 31 + _polarity.GetHashCode();
    }

}
