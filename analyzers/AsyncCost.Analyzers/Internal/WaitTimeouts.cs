using System;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The timeout arguments of a wait (<c>int millisecondsTimeout</c>, <c>TimeSpan timeout</c>): a wait with a zero
/// timeout (<c>Wait(0)</c>, <c>WaitOne(TimeSpan.Zero)</c>) is a non-blocking probe, not a wait.
/// </summary>
internal static class WaitTimeouts
{
    public enum Kind
    {
        None,
        Zero,
        NonZero,
    }

    public static Kind Of(IInvocationOperation invocation, INamedTypeSymbol? timeSpan)
    {
        var kind = Kind.None;
        foreach (var argument in invocation.Arguments)
        {
            if (argument.Parameter is not { } parameter)
            {
                continue;
            }
            var isTimeout = parameter.Type.SpecialType == SpecialType.System_Int32 && parameter.Name.IndexOf("timeout", StringComparison.OrdinalIgnoreCase) >= 0
                || SymbolEqualityComparer.Default.Equals(parameter.Type, timeSpan);
            if (!isTimeout)
            {
                continue;
            }
            if (IsZero(argument.Value, timeSpan))
            {
                return Kind.Zero;
            }
            kind = Kind.NonZero;
        }
        return kind;
    }

    private static bool IsZero(IOperation value, INamedTypeSymbol? timeSpan)
    {
        while (value is IConversionOperation conversion)
        {
            value = conversion.Operand;
        }
        return value.ConstantValue is { HasValue: true, Value: 0 }
            || value is IFieldReferenceOperation { Field: { Name: "Zero", IsStatic: true } field } && SymbolEqualityComparer.Default.Equals(field.ContainingType, timeSpan);
    }
}
