using BenchmarkDotNet.Attributes;

namespace AsyncCost.Benchmarks.ContextSwitches;

/// <summary>Smoke-sized first suite: an await of an already-completed task vs a Task.Yield hop (seed 000).</summary>
[MemoryDiagnoser]
public class AsyncWithoutYieldBenchmark
{
    private const int Units = 1_000;
    private Task _completed = Task.CompletedTask;

    [GlobalSetup]
    public void Setup() => _completed = Task.FromResult<object?>(null);

    [Benchmark(Baseline = true, OperationsPerInvoke = Units)]
    public async Task<int> AwaitCompletedTask()
    {
        var count = 0;
        for (var i = 0; i < Units; i++)
        {
            await _completed;
            count++;
        }
        return count;
    }

    [Benchmark(OperationsPerInvoke = Units)]
    public async Task<int> AwaitTaskYield()
    {
        var count = 0;
        for (var i = 0; i < Units; i++)
        {
            await Task.Yield();
            count++;
        }
        return count;
    }
}
