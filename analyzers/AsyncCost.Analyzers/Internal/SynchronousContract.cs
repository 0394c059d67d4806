using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// AC0010's split of AC0006: a wait where "await it" cannot be the fix because a synchronous contract its callers
/// rely on stands in the way. Either the wait is in the own body of such a member — a constructor, a finalizer,
/// Dispose, a synchronous override or interface implementation, an APM End… method, a method whose purpose is to
/// block (a blocking helper, or a member named like the blocking member of Task it stands in for) — or it is in a method only
/// this compilation can call whose every call stands in such a member, directly or through other such methods. In a
/// project that publishes a package, a public synchronous method that no async code of the package reaches is such a
/// member too: its callers are other assemblies that chose the synchronous form, so the fix is an async twin beside it,
/// not an await here (where async code of its own calls it, the fix applies in this compilation and the wait stays
/// AC0006's). The result says which contract, and what a maintainer can offer instead: the message's second argument.
/// One per compilation; the callers' answer is cached per method.
/// </summary>
internal sealed class SynchronousContract
{
    // The members of Task and Task<T> whose names say "this blocks". A member of one's own so named stands in for one
    // of them (a drop-in replacement, a wrapper's Result): its callers block knowingly. Not GetResult: await calls an
    // awaiter's only once it is complete, so a GetResult that blocks is a bug inside await, not a purpose.
    private static readonly string[] BlockingNames = ["Wait", "WaitAll", "WaitAny", "get_Result", "RunSynchronously"];

    // Past this many methods between the wait and the contract, the chain is not followed (the wait stays AC0006's).
    private const int MaxChain = AsyncCallers.MaxChain;

    private readonly WellKnownAsyncTypes _async;
    private readonly CallSites _callSites;
    private readonly Func<IMethodSymbol, bool> _isBlockingHelper;
    private readonly bool _publishesPackage;
    private readonly ConcurrentDictionary<IMethodSymbol, IMethodSymbol?> _contractCallers = new(SymbolEqualityComparer.Default);
    private readonly AsyncCallers _asyncCallers;

    public SynchronousContract(WellKnownAsyncTypes async, CallSites callSites, AsyncCallers asyncCallers, Func<IMethodSymbol, bool> isBlockingHelper, bool publishesPackage)
    {
        _async = async;
        _callSites = callSites;
        _asyncCallers = asyncCallers;
        _isBlockingHelper = isBlockingHelper;
        _publishesPackage = publishesPackage;
    }

    /// <summary>The contract the wait stands in, with the async alternative, or null where the wait is AC0006's.</summary>
    public string? Of(IOperation wait, IMethodSymbol? function)
    {
        if (function is null or { IsAsync: true })
        {
            return null;
        }
        // A lambda or local function is a function of its own, not the member's contract; a local function still
        // counts when only contracts call it.
        if (OperationScopes.EnclosingFunction(wait) is null && OfMember(function) is { } advice)
        {
            return advice;
        }
        return ContractCaller(function) is { } contract
            ? "only synchronous contracts call " + function.Name + " (" + Display(contract) + " among them), so an await here would have to cross one: "
              + "offer an async path beside the contract (its async twin calling an async " + function.Name + "), keeping the blocking only for callers of the synchronous form"
            : null;
    }

    private string? OfMember(IMethodSymbol function) => function switch
    {
        { IsAsync: true } or { MethodKind: MethodKind.AnonymousFunction or MethodKind.LocalFunction } => null,
        { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor } =>
            "it stands in a constructor, which cannot await: start the work there and await it on first use, or offer a static async factory",
        { MethodKind: MethodKind.Destructor } =>
            "it stands in a finalizer, which must not wait at all: release without waiting, and do the async teardown in DisposeAsync",
        _ when IsDispose(function) && HasDisposeAsync(function.ContainingType) =>
            "it stands in Dispose, which cannot await, and the type already has DisposeAsync: steer callers to it (await using), keeping the blocking only for callers of Dispose",
        _ when IsDispose(function) =>
            "it stands in Dispose, which cannot await: implement IAsyncDisposable and do the async teardown in DisposeAsync, keeping the blocking only for callers of Dispose",
        _ when IsApmEnd(function) =>
            "it stands in the APM method " + function.Name + ", whose callers wait by contract: point them to the Task-based method beside it",
        _ when _isBlockingHelper(function) =>
            "blocking on the task it is given is this method's purpose: await at its call sites instead, or name it in asynccost.AC0006.blocking_helpers so its calls are reported where they block",
        _ when IsNamedLikeBlockingApi(function) =>
            "it stands in " + Display(function) + ", named like the blocking member of Task it stands in for: its callers block knowingly, so await at their calls instead where they can",
        _ when Overridden(function) is { } contract =>
            "it stands in " + function.Name + ", a synchronous member of " + contract + " that cannot await: where the contract has an async twin, override that one too and steer callers to it, keeping the blocking only for callers of the synchronous form",
        _ when IsPackageSynchronousApi(function) => AsyncTwin(function) is { } twin
            ? "it stands in " + Display(function) + ", synchronous API of this package that no async code here reaches: its callers are other assemblies, so point them to " + twin + ", keeping the blocking only for callers of the synchronous form"
            : "it stands in " + Display(function) + ", synchronous API of this package that no async code here reaches: its callers are other assemblies, so offer an async twin beside it, keeping the blocking only for callers of the synchronous form",
        _ => null,
    };

    // A public, non-virtual method of a package's public type that none of the package's own async code reaches. Virtual
    // members are left out: their calls go through other members' names, which the search by name does not see.
    private bool IsPackageSynchronousApi(IMethodSymbol method) =>
        _publishesPackage && method is { MethodKind: MethodKind.Ordinary, IsVirtual: false, IsAbstract: false, IsOverride: false }
        && method.ContainingType is { TypeKind: TypeKind.Class or TypeKind.Struct }
        && CallSites.IsVisibleOutside(method) && !_async.IsTaskLike(method.ReturnType.OriginalDefinition)
        && !_asyncCallers.MayReach(method);

    // The async twin other assemblies can be pointed to: a method of the type (or a base) named like this one with Async,
    // that they can call (a private one is no twin for them).
    private static string? AsyncTwin(IMethodSymbol method)
    {
        for (var type = method.ContainingType; type is not null; type = type.BaseType)
        {
            if (type.GetMembers(method.Name + "Async").OfType<IMethodSymbol>().FirstOrDefault(CallSites.IsVisibleOutside) is { } twin)
            {
                return type.Name + "." + twin.Name;
            }
        }
        return null;
    }

    // `Wait`, `WaitAll`, `WaitAny`, `RunSynchronously` or a `Result` getter (or a method spelled as one,
    // `get_Result`, as an IL-rewriting replacement of Task<T>.Result is) that returns no task: the blocking form itself.
    private bool IsNamedLikeBlockingApi(IMethodSymbol method) =>
        method.MethodKind is MethodKind.Ordinary or MethodKind.PropertyGet
        && Array.IndexOf(BlockingNames, method.Name) >= 0
        && !_async.IsTaskLike(method.ReturnType.OriginalDefinition);

    /// <summary>
    /// The contract member the calls of a method that only this compilation can call all end in, or null: every call
    /// stands in the own body of a synchronous contract member, or of another such method (a call from a lambda, an
    /// async method or any other member, a use as a delegate, or a method with no call found, ends the search).
    /// </summary>
    private IMethodSymbol? ContractCaller(IMethodSymbol method) =>
        _contractCallers.GetOrAdd(method, m =>
        {
            IMethodSymbol? contract = null;
            return AllCallsEndInContracts(m, new HashSet<IMethodSymbol>(SymbolEqualityComparer.Default), ref contract) ? contract : null;
        });

    // A method met again on the way (recursion, or two paths to one caller) adds no caller of its own; `contract` is
    // the first contract member found, null if the calls only go round.
    private bool AllCallsEndInContracts(IMethodSymbol method, HashSet<IMethodSymbol> seen, ref IMethodSymbol? contract)
    {
        if (!seen.Add(method.OriginalDefinition))
        {
            return true;
        }
        if (seen.Count > MaxChain || method.IsAsync)
        {
            return false;
        }
        var found = _callSites.Of(method);
        if (!found.IsComplete || found.Calls.Length == 0 || found.HandedTo.Length > 0 || found.ThreadStarts > 0)
        {
            return false;
        }
        foreach (var (_, container) in found.Calls)
        {
            if (container is not IMethodSymbol caller)
            {
                return false; // a field or property initializer
            }
            if (OfMember(caller) is not null)
            {
                contract ??= caller;
            }
            else if (!AllCallsEndInContracts(caller, seen, ref contract))
            {
                return false;
            }
        }
        return true;
    }

    /// <summary>How a message names a method: <c>Type.Member</c> (a constructor by its type, an accessor by its property).</summary>
    public static string Display(IMethodSymbol method) =>
        method.ContainingType.Name + "." + (method.MethodKind is MethodKind.Constructor or MethodKind.StaticConstructor ? method.ContainingType.Name
            : method.AssociatedSymbol?.Name ?? method.Name);

    private static bool IsDispose(IMethodSymbol method) =>
        method.Name == "Dispose" && method.ReturnsVoid
        && (method.Parameters.Length == 0 || method.Parameters.Length == 1 && method.Parameters[0].Type.SpecialType == SpecialType.System_Boolean)
        || method.ExplicitInterfaceImplementations.Any(i => i.Name == "Dispose");

    // IAsyncDisposable, on the type or a base: "implement it" would be stale advice there.
    private static bool HasDisposeAsync(INamedTypeSymbol? type) =>
        type is not null && type.AllInterfaces.Any(i => i is { Name: "IAsyncDisposable", ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } });

    private static bool IsApmEnd(IMethodSymbol method) =>
        method.Name.StartsWith("End", StringComparison.Ordinal)
        && method.Parameters.Any(p => p.Type is { Name: "IAsyncResult", ContainingNamespace.Name: "System" });

    // The base type or interface whose synchronous member this one overrides or implements.
    private static string? Overridden(IMethodSymbol method)
    {
        if (method.IsOverride && method.OverriddenMethod is { } overridden)
        {
            return overridden.ContainingType.Name;
        }
        if (method.ExplicitInterfaceImplementations.FirstOrDefault() is { } explicitly)
        {
            return explicitly.ContainingType.Name;
        }
        var type = method.ContainingType;
        if (type is null || method.DeclaredAccessibility != Accessibility.Public || method.IsStatic)
        {
            return null;
        }
        foreach (var implemented in type.AllInterfaces)
        {
            foreach (var member in implemented.GetMembers(method.Name))
            {
                if (SymbolEqualityComparer.Default.Equals(type.FindImplementationForInterfaceMember(member), method))
                {
                    return implemented.Name;
                }
            }
        }
        return null;
    }
}
