using System;
using System.Linq;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// AC0010's split of AC0006: a wait in the own body of a member whose synchronous shape is a contract its callers
/// rely on, where "await it" cannot be the fix — a constructor, a finalizer, Dispose, a synchronous override or
/// interface implementation, an APM End… method, a method whose purpose is to block (a blocking helper). The
/// result says which contract, and what a maintainer can offer instead: the message's second argument.
/// </summary>
internal static class SynchronousContract
{
    /// <summary>The contract the wait stands in, with the async alternative, or null where the wait is AC0006's.</summary>
    public static string? Of(IOperation wait, IMethodSymbol? function, Func<IMethodSymbol, bool> isBlockingHelper)
    {
        if (function is null or { IsAsync: true } || OperationScopes.EnclosingFunction(wait) is not null)
        {
            return null; // a lambda or local function is a function of its own, not the member's contract
        }
        return function switch
        {
            { MethodKind: MethodKind.Constructor or MethodKind.StaticConstructor } =>
                "it stands in a constructor, which cannot await: start the work there and await it on first use, or offer a static async factory",
            { MethodKind: MethodKind.Destructor } =>
                "it stands in a finalizer, which must not wait at all: release without waiting, and do the async teardown in DisposeAsync",
            _ when IsDispose(function) =>
                "it stands in Dispose, which cannot await: implement IAsyncDisposable and do the async teardown in DisposeAsync, keeping the blocking only for callers of Dispose",
            _ when IsApmEnd(function) =>
                "it stands in the APM method " + function.Name + ", whose callers wait by contract: point them to the Task-based method beside it",
            _ when isBlockingHelper(function) =>
                "blocking on the task it is given is this method's purpose: await at its call sites instead, or name it in asynccost.AC0006.blocking_helpers so its calls are reported where they block",
            _ when Overridden(function) is { } contract =>
                "it stands in " + function.Name + ", a synchronous member of " + contract + " that cannot await: where the contract has an async twin, override that one too and steer callers to it, keeping the blocking only for callers of the synchronous form",
            _ => null,
        };
    }

    private static bool IsDispose(IMethodSymbol method) =>
        method.Name == "Dispose" && method.ReturnsVoid
        && (method.Parameters.Length == 0 || method.Parameters.Length == 1 && method.Parameters[0].Type.SpecialType == SpecialType.System_Boolean)
        || method.ExplicitInterfaceImplementations.Any(i => i.Name == "Dispose");

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
