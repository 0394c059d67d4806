namespace AsyncCost.Findings;

/// <summary>
/// What one unit of a counted cost takes, in microseconds, as this repository's benchmarks measured it on one machine: the
/// price a finding's time puts on what a run counts but cannot time (a hop, a state machine, a task, a closure).
/// </summary>
/// <param name="What">The unit, in words ("a thread-pool hop").</param>
/// <param name="Microseconds">The benchmark's mean per unit.</param>
/// <param name="ErrorBound">± at 95 %: Student's t (9 degrees of freedom, 2.262) × the standard deviation over the benchmark's 10
/// iterations ÷ √10; for a difference of two benchmarks, their standard deviations added in quadrature.</param>
/// <param name="Benchmark">The benchmark and column it comes from.</param>
/// <remarks>Every one comes from the machine and run <see cref="BenchmarkedCosts.Machine"/> names.</remarks>
public sealed record UnitCost(string What, double Microseconds, double ErrorBound, string Benchmark);

/// <summary>
/// The per-unit times the runtime library prices counted costs with: one place, from the full benchmark run in
/// benchmarks/results/main (benchmarks/RESULTS.md). The analyzers' <c>CostModel</c> quotes the same run in its messages; the
/// library cannot reference the analyzer assembly, so the figures the join needs are kept here with their bounds.
/// </summary>
public static class BenchmarkedCosts
{
    /// <summary>The machine and run the figures come from.</summary>
    public const string Machine = "BenchmarkDotNet 0.14.0 full run of 2026-11-22 on an Intel Xeon Processor (2 logical cores), .NET 10.0.12, Debian 12 (benchmarks/RESULTS.md)";

    /// <summary>One continuation queued to the thread pool and run there (await Task.Yield): 72.3 ns, SD 33.2 ns.</summary>
    public static readonly UnitCost ThreadPoolHop = new("a thread-pool hop", 0.0723, 0.0238, "ContextSwitchBenchmarks 'Async w/ yield', 0 iterations of work, Mean");

    /// <summary>The state machine of a call that completes without suspending, what a synchronous fast path or an elided
    /// state machine saves: GetStockPriceWithValueTaskAsync 147.4 ns (SD 0.80) − GetStockPriceWithFastPath 125.4 ns (SD 3.50).</summary>
    public static readonly UnitCost SynchronousStateMachine = new("the state machine of a call that completes without suspending", 0.022, 0.0026,
        "StockPricesBenchmarks GetStockPriceWithValueTaskAsync − GetStockPriceWithFastPath, Mean");

    /// <summary>The Task&lt;T&gt; a synchronously completing call allocates where a ValueTask&lt;T&gt; would not:
    /// GetStockPriceForAsync 181.4 ns (SD 9.45) − GetStockPriceWithValueTaskAsync 147.4 ns (SD 0.80).</summary>
    public static readonly UnitCost CompletedTask = new("the Task<T> a call that completes without suspending allocates", 0.034, 0.0068,
        "StockPricesBenchmarks GetStockPriceForAsync − GetStockPriceWithValueTaskAsync, Mean");

    /// <summary>The display class a capturing local function allocates on entry, fast path included:
    /// GetStockPriceWithCapturingFastPath 230.1 ns (SD 12.58) − GetStockPriceWithFastPath 125.4 ns (SD 3.50).</summary>
    public static readonly UnitCost Closure = new("the closure a call allocates on entry", 0.1047, 0.0093,
        "StockPricesBenchmarks GetStockPriceWithCapturingFastPath − GetStockPriceWithFastPath, Mean");
}
