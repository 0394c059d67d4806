using AsyncCost.Report;

namespace AsyncCost.InProcess;

/// <summary>
/// What one async method cost since the in-process stream started: estimates, scaled for the time each stream was off.
/// Every figure only grows, so it can be published as a monotonic counter.
/// </summary>
public sealed class MethodTotals
{
    /// <summary>The method key the analyzer's SARIF carries ("Ns.Type.Method").</summary>
    public required string MethodKey { get; init; }

    /// <summary>A readable name ("Ns.Cache&lt;T&gt;.GetAsync").</summary>
    public required string DisplayName { get; init; }

    /// <summary>Estimated bytes allocated, by kind of allocation (box, task, closure, delegate).</summary>
    public Dictionary<AllocationKind, double> BytesByKind { get; } = [];

    /// <summary>Estimated bytes allocated, all kinds.</summary>
    public double Bytes => BytesByKind.Values.Sum();

    /// <summary>Estimated calls: each call allocates either its box (it suspended) or its Task (it completed synchronously).</summary>
    public double Calls { get; set; }

    /// <summary>Estimated calls that suspended (from the hop stream).</summary>
    public double Suspensions { get; set; }

    /// <summary>Estimated resumptions that hopped through the thread pool (from the hop stream).</summary>
    public double Hops { get; set; }

    /// <summary>Estimated synchronous waits on the method's task (from the hop stream).</summary>
    public double BlockingWaits { get; set; }

    /// <summary>Estimated milliseconds callers waited on the method's calls that suspended, call to completion
    /// (from the hop stream; see <see cref="MethodCost.ElapsedMilliseconds"/>).</summary>
    public double ElapsedMilliseconds { get; set; }

    internal MethodTotals Copy()
    {
        var copy = new MethodTotals { MethodKey = MethodKey, DisplayName = DisplayName, Calls = Calls, Suspensions = Suspensions, Hops = Hops, BlockingWaits = BlockingWaits, ElapsedMilliseconds = ElapsedMilliseconds };
        foreach (var (kind, bytes) in BytesByKind)
        {
            copy.BytesByKind[kind] = bytes;
        }
        return copy;
    }
}

/// <summary>All methods' totals at one moment.</summary>
/// <param name="Methods">One entry per method key.</param>
/// <param name="Elapsed">Time since the stream started.</param>
/// <param name="AllocationSamples">AllocationSampled events counted (outside TPL windows).</param>
/// <param name="ExcludedAllocationSamples">AllocationSampled events dropped because TPL events were on when they were recorded.</param>
/// <param name="AllocationWindows">Allocation windows completed and counted.</param>
/// <param name="HopWindows">Hop windows completed and counted.</param>
public sealed record AsyncCostSnapshot(IReadOnlyList<MethodTotals> Methods, TimeSpan Elapsed, long AllocationSamples, long ExcludedAllocationSamples, int AllocationWindows, int HopWindows);
