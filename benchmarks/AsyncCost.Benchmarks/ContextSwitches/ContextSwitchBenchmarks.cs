using AsyncCost.Benchmarks.Infrastructure;
using BenchmarkDotNet.Attributes;

namespace AsyncCost.Benchmarks.ContextSwitches;

/// <summary>
/// Seed 000, "Context switches are not free": both published tables (0 and 500 iterations of work per unit), per unit,
/// with allocations and thread-pool work items. The published figures were one Stopwatch run of 500,000 units; here
/// BenchmarkDotNet repeats invocations of <see cref="UnitsPerInvoke"/> units and reports per unit.
/// </summary>
[MemoryDiagnoser]
[FullRunJob]
[BenchmarkCategory(Category, BenchmarkConfig.SeedsCategory)]
public class ContextSwitchBenchmarks
{
    public const string Category = "000-context-switches";

    /// <summary>Units per invocation: enough that a Task.Run or the thread start-up is amortised to noise.</summary>
    public const int UnitsPerInvoke = 20_000;

    [Params(0, 500)]
    public int WorkIterations { get; set; }

    [Benchmark(Baseline = true, OperationsPerInvoke = UnitsPerInvoke, Description = "No-switch")]
    public long NoSwitch() => ContextSwitchScenarios.NoSwitch(UnitsPerInvoke, WorkIterations);

    [Benchmark(OperationsPerInvoke = UnitsPerInvoke, Description = "Async w/o yield")]
    public long AsyncWithoutYield() => ContextSwitchScenarios.AsyncWithoutYield(UnitsPerInvoke, WorkIterations);

    [Benchmark(OperationsPerInvoke = UnitsPerInvoke, Description = "Async w/ yield")]
    public long AsyncWithYield() => ContextSwitchScenarios.AsyncWithYield(UnitsPerInvoke, WorkIterations);

    [Benchmark(OperationsPerInvoke = UnitsPerInvoke, Description = "Thread switches")]
    public long ThreadSwitches() =>
        ContextSwitchScenarios.ThreadSwitches(UnitsPerInvoke, WorkIterations, Environment.ProcessorCount);
}
