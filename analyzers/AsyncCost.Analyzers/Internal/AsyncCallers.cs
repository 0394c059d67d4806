using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Linq;
using Microsoft.CodeAnalysis;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// Whether async code of this compilation reaches a synchronous method through calls, asked two ways over the same
/// call-site lookups: "may it?" (AC0010: a package's synchronous API no async code of its own reaches), where anything
/// unknown counts as yes, and "by which chain?" (AC0006's message), where only calls that are seen count. One per
/// compilation; both answers are cached per method.
/// </summary>
internal sealed class AsyncCallers
{
    /// <summary>Past this many methods a chain is not followed.</summary>
    public const int MaxChain = 8;

    private readonly CallSites _callSites;
    private readonly ConcurrentDictionary<IMethodSymbol, bool> _mayReach = new(SymbolEqualityComparer.Default);
    private readonly ConcurrentDictionary<IMethodSymbol, IReadOnlyList<IMethodSymbol>?> _paths = new(SymbolEqualityComparer.Default);

    public AsyncCallers(CallSites callSites) => _callSites = callSites;

    /// <summary>
    /// Whether async code of this compilation may call the method, directly or through synchronous methods: a call in an
    /// async method, in any lambda or local function (where it runs is not known here), a use other than a call, or a
    /// chain longer than <see cref="MaxChain"/> all count as "may".
    /// </summary>
    public bool MayReach(IMethodSymbol method) => MayReach(method, new HashSet<IMethodSymbol>(SymbolEqualityComparer.Default));

    private bool MayReach(IMethodSymbol method, HashSet<IMethodSymbol> seen)
    {
        if (!seen.Add(method.OriginalDefinition))
        {
            return false;
        }
        if (_mayReach.TryGetValue(method.OriginalDefinition, out var known))
        {
            return known;
        }
        if (seen.Count > MaxChain || method.IsAsync)
        {
            return true;
        }
        var asked = seen.Count == 1;
        var found = _callSites.InThisCompilation(method);
        var reached = !found.IsComplete || found.HandedTo.Length > 0
            || found.Calls.Any(call => OperationScopes.EnclosingFunction(call.Invocation) is not null
                || call.Container is not IMethodSymbol caller
                || MayReach(caller, seen));
        // Only a whole answer is kept: one cut short by `seen` may differ when asked from elsewhere.
        if (asked)
        {
            _mayReach.TryAdd(method.OriginalDefinition, reached);
        }
        return reached;
    }

    /// <summary>
    /// The shortest chain of calls by which an async method of this compilation reaches a synchronous one, from the async
    /// method to <paramref name="method"/>, or null where none is found within <see cref="MaxChain"/> methods. Only
    /// calls in the members' own bodies count: where a lambda's call runs is not known here. A wait there blocks a
    /// thread inside that async flow, and the chain is where "make it async" starts.
    /// </summary>
    public IReadOnlyList<IMethodSymbol>? PathTo(IMethodSymbol method) =>
        _paths.GetOrAdd(method.OriginalDefinition, FindPath);

    private IReadOnlyList<IMethodSymbol>? FindPath(IMethodSymbol method)
    {
        // Breadth first, so the chain named is a shortest one; `calledBy` records the way back, and a method met again
        // (recursion, two ways to one caller) is not walked twice.
        var calledBy = new Dictionary<IMethodSymbol, IMethodSymbol>(SymbolEqualityComparer.Default) { [method] = method };
        var level = new List<IMethodSymbol> { method };
        for (var depth = 1; depth <= MaxChain && level.Count > 0; depth++)
        {
            var next = new List<IMethodSymbol>();
            foreach (var callee in level)
            {
                foreach (var (invocation, container) in _callSites.InThisCompilation(callee).Calls)
                {
                    if (OperationScopes.EnclosingFunction(invocation) is not null
                        || container is not IMethodSymbol { OriginalDefinition: var caller }
                        || calledBy.ContainsKey(caller))
                    {
                        continue;
                    }
                    calledBy[caller] = callee;
                    if (caller.IsAsync)
                    {
                        return WayBack(caller, calledBy, method);
                    }
                    next.Add(caller);
                }
            }
            level = next;
        }
        return null;
    }

    private static List<IMethodSymbol> WayBack(IMethodSymbol caller, Dictionary<IMethodSymbol, IMethodSymbol> calledBy, IMethodSymbol method)
    {
        var path = new List<IMethodSymbol> { caller };
        for (var step = calledBy[caller]; ; step = calledBy[step])
        {
            path.Add(step);
            if (SymbolEqualityComparer.Default.Equals(step, method))
            {
                return path;
            }
        }
    }
}
