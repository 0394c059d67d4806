using System.Collections.Immutable;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// Whether an expression can become an <c>await</c> where it stands: its own function is async and it is not
/// in a <c>lock</c> body or a query clause (CS1996, CS1995). The analyzer decides and tells the fix through a
/// diagnostic property, so the fix needs no second semantic pass.
/// </summary>
internal static class AwaitPlacement
{
    public const string PropertyName = "AsyncCostCanAwait";

    public static bool CanAwait(IOperation operation, ISymbol containingSymbol) =>
        OperationScopes.FunctionSymbol(operation, containingSymbol) is { IsAsync: true }
        && !OperationScopes.IsInside<ILockOperation>(operation)
        && !OperationScopes.IsInside<ITranslatedQueryOperation>(operation);

    public static ImmutableDictionary<string, string?> Properties(IOperation operation, ISymbol containingSymbol) =>
        CanAwait(operation, containingSymbol)
            ? ImmutableDictionary<string, string?>.Empty.Add(PropertyName, "true")
            : ImmutableDictionary<string, string?>.Empty;

    public static bool IsAwaitable(Diagnostic diagnostic) => diagnostic.Properties.ContainsKey(PropertyName);
}
