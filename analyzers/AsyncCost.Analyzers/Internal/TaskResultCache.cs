using System;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The results for which the runtime hands out a cached completed Task&lt;T&gt; (AsyncTaskMethodBuilder's task
/// cache), as .NET 10 does: both bools, ints in [-1, 9), null (Nullable&lt;T&gt; included), and the all-zero default of
/// primitives, enums, decimal, Guid, DateTime and TimeSpan (a value type without references of at most 16 bytes).
/// </summary>
internal static class TaskResultCache
{
    public static bool IsAlwaysCached(ITypeSymbol resultType) => resultType.SpecialType == SpecialType.System_Boolean;

    /// <summary>The runtime returns a cached task for this returned value.</summary>
    public static bool IsCached(IOperation returnedValue, ITypeSymbol resultType)
    {
        if (returnedValue is IDefaultValueOperation)
        {
            return !resultType.IsValueType || IsNullable(resultType) || HasCachedDefault(resultType);
        }
        if (returnedValue.ConstantValue is not { HasValue: true } constant)
        {
            return false;
        }
        return constant.Value switch
        {
            null => true,
            bool => true,
            int value when resultType.SpecialType == SpecialType.System_Int32 => value is >= -1 and < 9,
            _ => HasCachedDefault(resultType) && IsAllZero(constant.Value),
        };
    }

    private static bool IsNullable(ITypeSymbol type) => type.OriginalDefinition.SpecialType == SpecialType.System_Nullable_T;

    private static bool HasCachedDefault(ITypeSymbol type)
    {
        var underlying = type is INamedTypeSymbol { TypeKind: TypeKind.Enum, EnumUnderlyingType: { } enumType } ? enumType : type;
        if (underlying.SpecialType is SpecialType.System_Byte or SpecialType.System_SByte or SpecialType.System_Char
            or SpecialType.System_Int16 or SpecialType.System_UInt16 or SpecialType.System_Int32 or SpecialType.System_UInt32
            or SpecialType.System_Int64 or SpecialType.System_UInt64 or SpecialType.System_Single or SpecialType.System_Double
            or SpecialType.System_IntPtr or SpecialType.System_UIntPtr or SpecialType.System_Decimal or SpecialType.System_DateTime)
        {
            return true;
        }
        return underlying is INamedTypeSymbol { Name: "Guid" or "TimeSpan", ContainingNamespace: { Name: "System", ContainingNamespace.IsGlobalNamespace: true } };
    }

    // The cache holds the all-zero bit pattern only: +0.0 (not -0.0) and 0m (not 0.0m, whose scale is 1).
    private static bool IsAllZero(object value) => value switch
    {
        char c => c == '\0',
        float f => BitConverter.DoubleToInt64Bits(f) == 0,
        double d => BitConverter.DoubleToInt64Bits(d) == 0,
        decimal m => Array.TrueForAll(decimal.GetBits(m), part => part == 0),
        _ => Convert.ToDecimal(value, System.Globalization.CultureInfo.InvariantCulture) == 0m,
    };
}
