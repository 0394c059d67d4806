using AsyncCost.Benchmarks.Infrastructure;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Engines;

namespace AsyncCost.Benchmarks.FirstCall;

/// <summary>
/// Seed 002, first call: the first call of a method doing 1 ms of work, called directly vs through an async method
/// that awaits Task.Run, each in a fresh process (cold start: JIT, type loading, thread-pool start-up), and the same
/// calls warm. The published first-call figures came from a profiler (ANTS) in a WPF app.
/// </summary>
[SimpleJob(RunStrategy.ColdStart, launchCount: 5, warmupCount: 0, iterationCount: 1, id: "FirstCall")]
[SimpleJob(RunStrategy.Throughput, launchCount: 1, warmupCount: 3, iterationCount: 10, id: "SteadyState")]
[MemoryDiagnoser]
[BenchmarkCategory(Category, BenchmarkConfig.SeedsCategory)]
public class FirstCallBenchmarks
{
    public const string Category = "002-first-call";

    [Benchmark(Baseline = true, Description = "Sync call")]
    public int SyncCall() => OneMillisecondWork.Run();

    [Benchmark(Description = "async + await Task.Run")]
    public async Task<int> AsyncTaskRunCall() => await Task.Run(OneMillisecondWork.Run);
}
