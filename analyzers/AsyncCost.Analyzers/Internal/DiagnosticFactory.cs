using System.Collections.Immutable;
using Microsoft.CodeAnalysis;

namespace AsyncCost.Analyzers.Internal;

/// <summary>Every rule reports through here, so each finding carries the join key of the function whose cost it is about.</summary>
internal static class DiagnosticFactory
{
    /// <summary>A finding about <paramref name="function"/> itself: a member, local function or lambda.</summary>
    public static Diagnostic Create(DiagnosticDescriptor descriptor, Location location, ISymbol? function, params object?[] messageArgs) =>
        Create(descriptor, location, function, ImmutableDictionary<string, string?>.Empty, messageArgs);

    /// <inheritdoc cref="Create(DiagnosticDescriptor, Location, ISymbol?, object?[])"/>
    public static Diagnostic Create(
        DiagnosticDescriptor descriptor,
        Location location,
        ISymbol? function,
        ImmutableDictionary<string, string?> properties,
        params object?[] messageArgs) =>
        WithKey(descriptor, location, AsyncMethodKey.For(function), properties, messageArgs);

    /// <summary>A finding about code at <paramref name="operation"/>: keyed to the lambda, local function or member that runs it.</summary>
    public static Diagnostic Create(DiagnosticDescriptor descriptor, Location location, IOperation operation, ISymbol containingSymbol, params object?[] messageArgs) =>
        Create(descriptor, location, operation, containingSymbol, ImmutableDictionary<string, string?>.Empty, messageArgs);

    /// <inheritdoc cref="Create(DiagnosticDescriptor, Location, IOperation, ISymbol, object?[])"/>
    public static Diagnostic Create(
        DiagnosticDescriptor descriptor,
        Location location,
        IOperation operation,
        ISymbol containingSymbol,
        ImmutableDictionary<string, string?> properties,
        params object?[] messageArgs) =>
        WithKey(descriptor, location, AsyncMethodKey.For(OperationScopes.FunctionSymbol(operation, containingSymbol)), properties, messageArgs);

    private static Diagnostic WithKey(
        DiagnosticDescriptor descriptor, Location location, string? key, ImmutableDictionary<string, string?> properties, object?[] messageArgs)
    {
        if (key is not null)
        {
            properties = properties.SetItem(AsyncMethodKey.PropertyName, key);
        }
        return Diagnostic.Create(descriptor, location, properties, messageArgs);
    }
}
