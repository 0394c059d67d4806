using System.Runtime.CompilerServices;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The few small helpers every rule calls in loops over operations (walking a body, climbing to a parent, stripping
/// conversions) are compiled optimized at once. In a build an analyzer's code stays at tier 0: in a compile of Npgsql
/// none of AsyncCost's 427 (nor ILLink's 1,563) jitted methods reached tier 1, and methods with loops ran
/// instrumented for PGO throughout. Only small hot methods carry it: optimizing a large one costs more to jit than
/// it saves (measured, see analyzers/field-test/README.md).
/// </summary>
internal static class HotPath
{
    /// <summary><c>MethodImplOptions.AggressiveOptimization</c>, which netstandard2.0 does not name; runtimes that know the flag honour it.</summary>
    public const MethodImplOptions Optimized = (MethodImplOptions)512;
}
