using AsyncCost.Benchmarks.Infrastructure;
using BenchmarkDotNet.Attributes;

namespace AsyncCost.Benchmarks.FirstCall;

/// <summary>
/// Seed 002, steady state: 1,000 calls of 1 ms of work, directly vs each through <c>await Task.Run</c> (a hop to the
/// thread pool and back per call), after a warm-up. The published figure is the async loop's overhead: ~150 ms over
/// 1,000 ms, ~15 %; here it is the Ratio column minus one.
/// </summary>
[SimpleJob(launchCount: 1, warmupCount: 1, iterationCount: 5, invocationCount: 1, id: "ThousandCalls")]
[MemoryDiagnoser]
[BenchmarkCategory(Category, BenchmarkConfig.SeedsCategory)]
public class TaskRunOverheadBenchmarks
{
    public const string Category = "002-task-run-overhead";
    public const int Calls = 1_000;

    [Benchmark(Baseline = true, OperationsPerInvoke = Calls, Description = "1,000 sync calls")]
    public long SyncCalls()
    {
        long spins = 0;
        for (var i = 0; i < Calls; i++)
            spins += OneMillisecondWork.Run();
        return spins;
    }

    [Benchmark(OperationsPerInvoke = Calls, Description = "1,000 awaited Task.Run calls")]
    public async Task<long> TaskRunAwaitCalls()
    {
        long spins = 0;
        for (var i = 0; i < Calls; i++)
            spins += await Task.Run(OneMillisecondWork.Run);
        return spins;
    }
}
