namespace AsyncCost.Testing;

/// <summary>How much an <see cref="AsyncCostMeasurement"/> runs the operation.</summary>
public sealed record MeasurementOptions
{
    /// <summary>Operations run before measuring (first calls: JIT, static constructors, caches), and again at the start of each
    /// event pass with its events on (their first events in a process are slow).</summary>
    public long WarmupOperations { get; init; } = 1_000;

    /// <summary>Operations of the hop pass and of each of the exact pass's two runs: hops and waits are counted exactly over them.</summary>
    public long Operations { get; init; } = 10_000;

    /// <summary>Allocation samples the allocation pass aims for (about ±6 % on a method's bytes at 1,000): it runs enough
    /// operations for them at the bytes the exact pass counted, within <see cref="MaxAllocationOperations"/> and
    /// <see cref="AllocationPassTimeLimit"/>.</summary>
    public long AllocationSamples { get; init; } = 1_000;

    /// <summary>The most operations the allocation pass runs.</summary>
    public long MaxAllocationOperations { get; init; } = 20_000_000;

    /// <summary>About the longest the allocation pass runs, judged from the exact pass's pace (fewer samples, a wider bound).</summary>
    public TimeSpan AllocationPassTimeLimit { get; init; } = TimeSpan.FromSeconds(10);

    /// <summary>Why these options cannot run, or null.</summary>
    internal string? Problem() =>
        WarmupOperations < 0 ? "WarmupOperations must not be negative."
        : Operations < 1 ? "Operations must be at least 1."
        : AllocationSamples < 1 ? "AllocationSamples must be at least 1."
        : MaxAllocationOperations < Operations ? "MaxAllocationOperations must be at least Operations."
        : AllocationPassTimeLimit <= TimeSpan.Zero ? "AllocationPassTimeLimit must be positive."
        : null;
}
