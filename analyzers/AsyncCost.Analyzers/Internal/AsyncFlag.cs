using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The <c>bool async</c> idiom: one implementation serves a synchronous and an asynchronous API, a <c>bool</c>
/// parameter choosing <c>await stream.ReadAsync(…)</c> or <c>stream.Read(…)</c>. The sync API calls it with
/// <c>false</c> and blocks on a task that, by construction, has completed; the async body holds blocking calls in
/// the arm that runs when the flag is false. Both are the idiom working as meant, not sync-over-async.
/// </summary>
internal sealed class AsyncFlag
{
    // Calls forwarding the flag are followed this deep; beyond, the forwarded callee is trusted to follow the idiom.
    private const int MaxDepth = 4;

    private readonly WellKnownAsyncTypes _types;
    private readonly MethodBodies _bodies;
    // Keyed by depth too: a callee without a body is trusted when handed the flag, and the walk stops at MaxDepth, so
    // the answer depends on the depth; one key per depth keeps it from depending on which caller asked first.
    private readonly ConcurrentDictionary<Judgement, bool> _synchronousWhenFalse = new();
    private readonly ConcurrentDictionary<IMethodSymbol, bool> _returnsOnlyCompleted = new(SymbolEqualityComparer.Default);

    public AsyncFlag(WellKnownAsyncTypes types, MethodBodies bodies)
    {
        _types = types;
        _bodies = bodies;
    }

    /// <summary>
    /// Whether the operation is the synchronous arm of a split on a <c>bool</c> parameter of its own function
    /// (<c>if (async) await X.WaitAsync(); else X.Wait();</c>, <c>if (!async) …</c>, <c>async ? await … : …</c>):
    /// it runs only when that flag is false, and each of the function's awaits runs only where the flag is true or
    /// awaits a call handed the flag (<c>await LoadAsync(async, ct)</c>, the idiom's way down).
    /// </summary>
    public static bool IsSynchronousArm(IOperation operation, IMethodSymbol function)
    {
        var body = OperationScopes.EnclosingFunction(operation) ?? OperationTree.Root(operation);
        foreach (var parameter in function.Parameters)
        {
            if (parameter.Type.SpecialType != SpecialType.System_Boolean)
            {
                continue;
            }
            var flag = Flag.In(body, parameter);
            if (!flag.RunsOnlyWhen(operation, false))
            {
                continue;
            }
            var awaits = OperationTree.SameMethod(body).OfType<IAwaitOperation>().ToList();
            if (awaits.Count > 0 && awaits.All(awaitOperation => flag.RunsOnlyWhen(awaitOperation, true) || flag.IsArgumentOf(awaitOperation.Operation) is not null))
            {
                return true;
            }
        }
        return false;
    }

    /// <summary>
    /// Whether the operation runs only in a synchronous mode that the code names: where a <c>bool</c> named for
    /// asynchrony (<c>async</c>, <c>isAsync</c>, <c>_async</c>, <c>useAsync</c>) is false, or one named for
    /// synchrony (<c>IsSynchronous</c>, <c>sync</c>, <c>runSynchronously</c>) is true — a parameter, local, field or
    /// property, checked by an enclosing condition or an early exit. The name is the evidence: such code is the
    /// synchronous API's path of a library that serves both, where there is no caller to await.
    /// </summary>
    public static bool RunsInSynchronousMode(IOperation operation) =>
        EnclosingConditions.Of(operation, crossFunctions: false).Any(known => EnclosingConditions.Implies(known.Condition, known.Value, (leaf, value) =>
            leaf.Type?.SpecialType == SpecialType.System_Boolean
            && OperationTree.ReferencedSymbol(leaf) is { } symbol
            && (value ? IsSynchronyName(symbol.Name) : IsAsynchronyName(symbol.Name))));

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
    /// Whether the call passes the constant <c>false</c> to a <c>bool</c> parameter of a method that, for that value,
    /// completes without suspending: each of its awaits sits where the flag is true, or awaits a call that hands the
    /// flag on to a method that does the same.
    /// </summary>
    public bool CompletesSynchronously(IInvocationOperation call)
    {
        foreach (var argument in call.Arguments)
        {
            if (argument.Parameter is { Type.SpecialType: SpecialType.System_Boolean } parameter
                && TaskReference.Strip(argument.Value)!.ConstantValue is { HasValue: true, Value: false }
                && IsSynchronousWhenFalse(call.TargetMethod, parameter.Ordinal, depth: 0, new HashSet<IMethodSymbol>(SymbolEqualityComparer.Default)))
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

    private bool IsCompletedOrNull(IOperation value)
    {
        var stripped = TaskReference.Strip(value)!;
        return stripped switch
        {
            IConditionalOperation { WhenFalse: { } whenFalse } conditional => IsCompletedOrNull(conditional.WhenTrue) && IsCompletedOrNull(whenFalse),
            _ when stripped.ConstantValue is { HasValue: true, Value: null } => true,
            IFieldReferenceOperation { Field: { IsReadOnly: true, IsStatic: true } field } =>
                _bodies.InitializerOf(field) is { } initializer && _types.IsCompletedByConstruction(TaskReference.Strip(initializer)),
            _ => _types.IsCompletedByConstruction(stripped),
        };
    }

    private bool IsSynchronousWhenFalse(IMethodSymbol method, int ordinal, int depth, HashSet<IMethodSymbol> visiting)
    {
        method = method.OriginalDefinition.PartialImplementationPart ?? method.OriginalDefinition;
        if (!visiting.Add(method))
        {
            return true; // recursion: the cycle adds no await of its own
        }
        try
        {
            var key = new Judgement(method, ordinal, depth);
            return _synchronousWhenFalse.TryGetValue(key, out var known)
                ? known
                : _synchronousWhenFalse.GetOrAdd(key, Judge(method, ordinal, depth, visiting));
        }
        finally
        {
            visiting.Remove(method);
        }
    }

    private bool Judge(IMethodSymbol method, int ordinal, int depth, HashSet<IMethodSymbol> visiting)
    {
        if (_bodies.Of(method) is not { } body)
        {
            // Abstract, interface or compiled elsewhere: a method handed the flag by one that follows the idiom is
            // taken to follow it too; called directly with false, the parameter's name is the evidence (`bool async`).
            return depth > 0 || IsAsynchronyName(method.Parameters[ordinal].Name);
        }
        var flag = Flag.In(body, method.Parameters[ordinal]);
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
        // A method returning the task of another: every task it returns must complete synchronously for false.
        return OperationTree.SameMethod(body).OfType<IReturnOperation>()
            .All(returned => returned.ReturnedValue is not { } value || ReturnsCompleted(value, flag, depth, visiting));
    }

    private bool ReturnsCompleted(IOperation value, Flag flag, int depth, HashSet<IMethodSymbol> visiting) =>
        TaskReference.Strip(value) is IConditionalOperation { WhenFalse: { } whenFalse } conditional
            ? ReturnsCompleted(conditional.WhenTrue, flag, depth, visiting) && ReturnsCompleted(whenFalse, flag, depth, visiting)
            : _types.IsCompletedByConstruction(TaskReference.Strip(value)) || ForwardsFlag(value, flag, depth, visiting) || flag.RunsOnlyWhen(value, true);

    // `await Read(async, …)` or `return ReadAsync(async, …)`: a call handed the flag itself, to a method that completes
    // synchronously for false (ConfigureAwait, conversions looked through).
    private bool ForwardsFlag(IOperation awaited, Flag flag, int depth, HashSet<IMethodSymbol> visiting) =>
        flag.IsArgumentOf(awaited) is { } forwarded
        && (depth >= MaxDepth || IsSynchronousWhenFalse(forwarded.Call.TargetMethod, forwarded.Ordinal, depth + 1, visiting));

    /// <summary>
    /// The key of a judgement: a method, the ordinal of its flag and the depth it was asked at. A class, not a tuple: a
    /// dictionary keyed by a struct is JIT-compiled again for it in every fresh compiler process.
    /// </summary>
    private sealed class Judgement(IMethodSymbol method, int ordinal, int depth) : IEquatable<Judgement>
    {
        private readonly IMethodSymbol _method = method;
        private readonly int _ordinal = ordinal;
        private readonly int _depth = depth;

        public bool Equals(Judgement? other) =>
            other is not null && other._ordinal == _ordinal && other._depth == _depth && SymbolEqualityComparer.Default.Equals(other._method, _method);

        public override bool Equals(object? obj) => Equals(obj as Judgement);

        public override int GetHashCode() => (SymbolEqualityComparer.Default.GetHashCode(_method) * 31 + _ordinal) * 31 + _depth;
    }

    /// <summary>A <c>bool</c> parameter of a function and the locals that copy it (<c>var a = async;</c>, never reassigned).</summary>
    private sealed class Flag
    {
        private readonly HashSet<ISymbol> _symbols;

        private Flag(HashSet<ISymbol> symbols) => _symbols = symbols;

        public static Flag In(IOperation body, IParameterSymbol parameter)
        {
            var symbols = new HashSet<ISymbol>(SymbolEqualityComparer.Default) { parameter };
            var reassigned = new HashSet<ISymbol>(SymbolEqualityComparer.Default);
            var copies = new List<ILocalSymbol>();
            foreach (var operation in OperationTree.SameMethod(body))
            {
                switch (operation)
                {
                    case IVariableDeclaratorOperation { Initializer.Value: var value } declarator
                        when TaskReference.Strip(value) is IParameterReferenceOperation reference && SymbolEqualityComparer.Default.Equals(reference.Parameter, parameter):
                        copies.Add(declarator.Symbol);
                        break;
                    case IAssignmentOperation { Target: ILocalReferenceOperation target }:
                        reassigned.Add(target.Local);
                        break;
                }
            }
            symbols.UnionWith(copies.Where(copy => !reassigned.Contains(copy)));
            return new Flag(symbols);
        }

        public bool Refers(IOperation? operation) =>
            TaskReference.Strip(operation) is { } stripped && OperationTree.ReferencedSymbol(stripped) is { } symbol
            && stripped is IParameterReferenceOperation or ILocalReferenceOperation && _symbols.Contains(symbol);

        public bool RunsOnlyWhen(IOperation operation, bool value) =>
            EnclosingConditions.Of(operation, crossFunctions: false).Any(known =>
                EnclosingConditions.Implies(known.Condition, known.Value, (leaf, leafValue) => leafValue == value && Refers(leaf)));

        /// <summary>The call (ConfigureAwait, AsTask, Preserve looked through) that receives the flag, and the ordinal of the parameter it fills.</summary>
        public (IInvocationOperation Call, int Ordinal)? IsArgumentOf(IOperation awaited)
        {
            var operation = TaskReference.Strip(awaited);
            while (operation is IInvocationOperation { TargetMethod.Name: ConfigureAwaitCalls.MethodName or "AsTask" or "Preserve", Instance: { } passedOn })
            {
                operation = TaskReference.Strip(passedOn);
            }
            if (operation is IInvocationOperation call)
            {
                foreach (var argument in call.Arguments)
                {
                    if (argument.Parameter is { } parameter && Refers(argument.Value))
                    {
                        return (call, parameter.Ordinal);
                    }
                }
            }
            return null;
        }
    }
}
