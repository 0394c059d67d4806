using AsyncCost.Report;

namespace AsyncCost.BenchmarkDotNet;

/// <summary>
/// One benchmark's async cost per operation: the allocation pass over the iteration BenchmarkDotNet runs after the actual
/// ones for its extra statistics and, for a job that fixes IterationCount, the hop pass over the actual iterations of an
/// extra run. Figures as the CLI's report has them: exact
/// counts, or estimates with their 95 % bound.
/// </summary>
public sealed class BenchmarkAsyncCost
{
    internal BenchmarkAsyncCost(AsyncCostReport allocations, long allocationOperations, AsyncCostReport? hops, long hopOperations, bool nothingAllocated)
    {
        AllocationReport = allocations;
        HopReport = hops;
        AllocationOperations = allocationOperations;
        HopOperations = hopOperations;
        // The GC counted no byte in the iteration (MemoryDiagnoser's "-"): no method allocated one, exactly.
        AsyncMethodBytes = nothingAllocated ? Figure.Exact(0, FigureSource.AllocationPass) : ReportFigures.AsyncMethodBytes(allocations)?.Per(allocationOperations);
        StateMachines = Figure.Sum(allocations.Methods.SelectMany(m => m.Allocations).Where(a => a.Kind == AllocationKind.StateMachineBox).Select(a => a.Objects))
            ?.Per(allocationOperations) ?? (AsyncMethodBytes is null ? null : Figure.Exact(0, FigureSource.AllocationPass));
        if (hops is not null && hopOperations > 0)
        {
            Hops = (Figure.Sum(hops.Methods.Select(m => m.Hops)) ?? Figure.Exact(0, FigureSource.HopPass)).Per(hopOperations);
            BlockingWaits = (Figure.Sum(hops.Methods.Select(m => m.BlockingWaits)) ?? Figure.Exact(0, FigureSource.HopPass)).Per(hopOperations);
        }
        Methods = [.. allocations.Methods.Select(m => m.MethodKey).Concat(hops?.Methods.Select(m => m.MethodKey) ?? []).Distinct(StringComparer.Ordinal)
            .Select(key => Method(key, allocations.Methods.FirstOrDefault(m => m.MethodKey == key), hops?.Methods.FirstOrDefault(m => m.MethodKey == key)))];
    }

    /// <summary>The allocation pass's report (totals over <see cref="AllocationOperations"/>).</summary>
    public AsyncCostReport AllocationReport { get; }

    /// <summary>The hop pass's report (totals over <see cref="HopOperations"/>), null when it did not run.</summary>
    public AsyncCostReport? HopReport { get; }

    /// <summary>Operations of the extra-statistics iteration the allocation pass recorded.</summary>
    public long AllocationOperations { get; }

    /// <summary>Operations of the actual iterations the hop pass recorded; 0 when unknown (the job does not fix their number).</summary>
    public long HopOperations { get; }

    /// <summary>Bytes all async methods allocated per operation.</summary>
    public Figure? AsyncMethodBytes { get; }

    /// <summary>State-machine boxes allocated per operation.</summary>
    public Figure? StateMachines { get; }

    /// <summary>Thread-pool hops of async methods' resumptions per operation; null without the hop pass.</summary>
    public Figure? Hops { get; }

    /// <summary>Blocking waits async methods made per operation; null without the hop pass.</summary>
    public Figure? BlockingWaits { get; }

    /// <summary>The async methods behind the figures, per operation.</summary>
    public IReadOnlyList<BenchmarkMethodCost> Methods { get; }

    /// <summary>A method's figures; one that a pass which ran saw nothing of has 0 there, as the benchmark's totals do (the hop
    /// pass counts every event: exactly).</summary>
    private BenchmarkMethodCost Method(string key, MethodCost? allocated, MethodCost? hopped) => new(
        key,
        allocated?.DisplayName ?? hopped!.DisplayName,
        allocated?.Bytes?.Per(AllocationOperations),
        Figure.Sum(allocated?.Allocations.Where(a => a.Kind == AllocationKind.StateMachineBox).Select(a => a.Objects) ?? [])?.Per(AllocationOperations)
            ?? (allocated is null ? null : Figure.Exact(0, FigureSource.AllocationPass)),
        HopOperations > 0 ? (hopped?.Hops ?? Figure.Exact(0, FigureSource.HopPass)).Per(HopOperations) : null,
        HopOperations > 0 ? (hopped?.BlockingWaits ?? Figure.Exact(0, FigureSource.HopPass)).Per(HopOperations) : null);
}

/// <summary>One async method's figures per operation of a benchmark (null: not measured, or not seen by that pass).</summary>
/// <param name="MethodKey">"Ns.Type.Method".</param>
/// <param name="DisplayName">A readable name.</param>
/// <param name="Bytes">Bytes per operation.</param>
/// <param name="StateMachines">State-machine boxes per operation.</param>
/// <param name="Hops">Thread-pool hops per operation.</param>
/// <param name="BlockingWaits">Blocking waits per operation.</param>
public sealed record BenchmarkMethodCost(string MethodKey, string DisplayName, Figure? Bytes, Figure? StateMachines, Figure? Hops, Figure? BlockingWaits);
