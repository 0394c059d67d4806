using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Operations;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The results for which the runtime hands out a cached completed Task&lt;T&gt; (AsyncTaskMethodBuilder's task
/// cache): both bools, ints in [-1, 9), null, and the all-zero default of 1-, 2-, 4- and 8-byte primitives and enums.
/// </summary>
internal static class TaskResultCache
{
    public static bool IsAlwaysCached(ITypeSymbol resultType) => resultType.SpecialType == SpecialType.System_Boolean;

    /// <summary>The runtime returns a cached task for this returned value.</summary>
    public static bool IsCached(IOperation returnedValue, ITypeSymbol resultType)
    {
        if (returnedValue is IDefaultValueOperation)
        {
            return !resultType.IsValueType || IsSmallPrimitive(resultType);
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
            _ => IsSmallPrimitive(resultType) && IsZero(constant.Value),
        };
    }

    private static bool IsSmallPrimitive(ITypeSymbol type)
    {
        var underlying = type is INamedTypeSymbol { TypeKind: TypeKind.Enum, EnumUnderlyingType: { } enumType } ? enumType : type;
        return underlying.SpecialType is SpecialType.System_Byte or SpecialType.System_SByte or SpecialType.System_Char
            or SpecialType.System_Int16 or SpecialType.System_UInt16 or SpecialType.System_Int32 or SpecialType.System_UInt32
            or SpecialType.System_Int64 or SpecialType.System_UInt64 or SpecialType.System_Single or SpecialType.System_Double
            or SpecialType.System_IntPtr or SpecialType.System_UIntPtr;
    }

    private static bool IsZero(object value) => value switch
    {
        char c => c == '\0',
        float f => System.BitConverter.DoubleToInt64Bits(f) == 0, // +0 only: -0 has a sign bit, so it is not the cached default
        double d => System.BitConverter.DoubleToInt64Bits(d) == 0,
        _ => System.Convert.ToDecimal(value, System.Globalization.CultureInfo.InvariantCulture) == 0m,
    };
}
