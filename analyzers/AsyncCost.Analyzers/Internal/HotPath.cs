using System.Runtime.CompilerServices;

namespace AsyncCost.Analyzers.Internal;

/// <summary>
/// The few small helpers every rule calls in loops over operations (walking a body, climbing to a parent, stripping
/// conversions) are compiled optimized at once. In a build an analyzer's code does not leave tier 0: in a fresh
/// compile of Npgsql none of AsyncCost's 427 (nor ILLink's 1,564) jitted methods reached tier 1, nor any of ours after
/// three compiles in one compiler server, and methods with loops run instrumented for PGO. Only small hot methods
/// carry it: marking the rules' large methods too made the package slower, fresh and warm (see
/// benchmarks/results/FieldTest.md).
/// </summary>
internal static class HotPath
{
    /// <summary><c>MethodImplOptions.AggressiveOptimization</c>, which netstandard2.0 does not name; runtimes that know the flag honour it.</summary>
    public const MethodImplOptions Optimized = (MethodImplOptions)512;
}
