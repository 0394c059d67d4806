using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Globalization;
using System.Collections.Immutable;
using System.Linq;
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

    /// <summary>
    /// As <see cref="Create(DiagnosticDescriptor, Location, IOperation, ISymbol, ImmutableDictionary{string, string?}, object?[])"/>,
    /// at a severity the evidence decides (a warning only where it is shown), which a measurement of the finding the project
    /// lists overrides (<see cref="MeasuredCosts"/>: its message then says what it cost and where); a team's own setting
    /// for the rule still wins over both.
    /// </summary>
    public static Diagnostic Create(
        DiagnosticDescriptor descriptor,
        DiagnosticSeverity severity,
        MeasuredCosts? measured,
        Location location,
        IOperation operation,
        ISymbol containingSymbol,
        ImmutableDictionary<string, string?> properties,
        params object?[] messageArgs)
    {
        var key = AsyncMethodKey.For(OperationScopes.FunctionSymbol(operation, containingSymbol));
        if (measured?.Of(descriptor.Id, location, key) is { } measurement)
        {
            severity = measured.SeverityOf(measurement) ?? severity;
            descriptor = WithMeasurement(descriptor, messageArgs.Length);
            messageArgs = [.. messageArgs, measurement.Describe()];
        }
        return WithKey(descriptor, location, key, properties, messageArgs, severity);
    }

    // The rule's descriptor with one more message argument for the measurement ("…; measured 16.2 ms per operation in …"):
    // the same ID, so the rule's supported descriptors, suppressions and .editorconfig settings apply to it.
    private static readonly ConcurrentDictionary<(string Id, int Slot), DiagnosticDescriptor> MeasuredDescriptors = new();

    private static DiagnosticDescriptor WithMeasurement(DiagnosticDescriptor descriptor, int slot) =>
        MeasuredDescriptors.GetOrAdd((descriptor.Id, slot), _ => new DiagnosticDescriptor(
            descriptor.Id,
            descriptor.Title,
            descriptor.MessageFormat.ToString(CultureInfo.InvariantCulture) + " — {" + slot.ToString(CultureInfo.InvariantCulture) + "}",
            descriptor.Category,
            descriptor.DefaultSeverity,
            descriptor.IsEnabledByDefault,
            descriptor.Description,
            descriptor.HelpLinkUri,
            descriptor.CustomTags.ToArray()));

    /// <summary><paramref name="properties"/> with the keys of the methods the finding's cost is spent in (callees, the
    /// method whose task is blocked on), each once, in source order; unchanged when none has a key.</summary>
    public static ImmutableDictionary<string, string?> WithCostIn(ImmutableDictionary<string, string?> properties, IEnumerable<IMethodSymbol> callees)
    {
        var keys = callees.Select(callee => AsyncMethodKey.For(callee.ReducedFrom ?? callee)).OfType<string>().Distinct().ToList();
        return keys.Count == 0 ? properties : properties.SetItem(AsyncMethodKey.CostInPropertyName, string.Join(";", keys));
    }

    private static Diagnostic WithKey(
        DiagnosticDescriptor descriptor, Location location, string? key, ImmutableDictionary<string, string?> properties, object?[] messageArgs, DiagnosticSeverity? severity = null)
    {
        if (key is not null)
        {
            properties = properties.SetItem(AsyncMethodKey.PropertyName, key);
        }
        return Diagnostic.Create(descriptor, location, severity ?? descriptor.DefaultSeverity, additionalLocations: null, properties, messageArgs);
    }
}
