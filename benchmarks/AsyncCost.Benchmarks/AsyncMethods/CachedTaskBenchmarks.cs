using System.Runtime.CompilerServices;
using AsyncCost.Benchmarks.Infrastructure;
using BenchmarkDotNet.Attributes;

namespace AsyncCost.Benchmarks.AsyncMethods;

/// <summary>
/// Seed 003's "Optimization #1": a synchronously completing async Task&lt;T&gt; method returns a cached task for
/// Task&lt;bool&gt; and for Task&lt;int&gt; in [-1, 9); any other result allocates its Task. Allocated per call shows
/// which results are cached on this runtime.
/// </summary>
[MemoryDiagnoser]
[FullRunJob]
[BenchmarkCategory(Category, BenchmarkConfig.SeedsCategory)]
public class CachedTaskBenchmarks
{
    public const string Category = "003-cached-tasks";

    // Fields, not constants, so the JIT cannot specialise the calls.
    private bool _true = true;
    private int _minusOne = -1, _eight = 8, _nine = 9, _minusTwo = -2;
    private decimal _price = 42m;

    [Benchmark(Baseline = true, Description = "Task<bool> true")]
    public bool TaskOfBool() => ReturnAsync(_true).GetAwaiter().GetResult();

    [Benchmark(Description = "Task<int> -1 (cached)")]
    public int TaskOfIntMinusOne() => ReturnAsync(_minusOne).GetAwaiter().GetResult();

    [Benchmark(Description = "Task<int> 8 (cached)")]
    public int TaskOfIntEight() => ReturnAsync(_eight).GetAwaiter().GetResult();

    [Benchmark(Description = "Task<int> 9 (not cached)")]
    public int TaskOfIntNine() => ReturnAsync(_nine).GetAwaiter().GetResult();

    [Benchmark(Description = "Task<int> -2 (not cached)")]
    public int TaskOfIntMinusTwo() => ReturnAsync(_minusTwo).GetAwaiter().GetResult();

    [Benchmark(Description = "Task<decimal> (not cached)")]
    public decimal TaskOfDecimal() => ReturnAsync(_price).GetAwaiter().GetResult();

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async Task<T> ReturnAsync<T>(T value)
    {
        await Task.CompletedTask;
        return value;
    }
}
