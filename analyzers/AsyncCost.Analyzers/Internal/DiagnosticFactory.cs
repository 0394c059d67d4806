using System.Collections.Immutable;
using Microsoft.CodeAnalysis;

namespace AsyncCost.Analyzers.Internal;

/// <summary>Every rule reports through here, so each finding carries its containing method's join key.</summary>
internal static class DiagnosticFactory
{
    public static Diagnostic Create(DiagnosticDescriptor descriptor, Location location, ISymbol? containingSymbol, params object?[] messageArgs) =>
        Create(descriptor, location, containingSymbol, ImmutableDictionary<string, string?>.Empty, messageArgs);

    public static Diagnostic Create(
        DiagnosticDescriptor descriptor,
        Location location,
        ISymbol? containingSymbol,
        ImmutableDictionary<string, string?> properties,
        params object?[] messageArgs)
    {
        if (AsyncMethodKey.For(containingSymbol) is { } key)
        {
            properties = properties.SetItem(AsyncMethodKey.PropertyName, key);
        }
        return Diagnostic.Create(descriptor, location, properties, messageArgs);
    }
}
