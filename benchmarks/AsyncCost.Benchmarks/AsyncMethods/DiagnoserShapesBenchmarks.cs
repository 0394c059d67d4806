using System.Runtime.CompilerServices;
using AsyncCost.BenchmarkDotNet;
using AsyncCost.Benchmarks.Infrastructure;
using BenchmarkDotNet.Attributes;

// The ValueTask completes synchronously every call (its value is never negative): reading it at once is safe.
#pragma warning disable CA2012

namespace AsyncCost.Benchmarks.AsyncMethods;

/// <summary>
/// The three shapes issue 48 checks the diagnoser on, each beside MemoryDiagnoser's exact count: a synchronously completing
/// async Task&lt;int&gt; (its 72 B Task, a type that names no method: charged by the allocation samples' stacks), its
/// ValueTask&lt;int&gt; twin (nothing) and a method that awaits Task.Yield (its box, one hop).
/// </summary>
[MemoryDiagnoser]
[AsyncCostDiagnoser]
[FullRunJob]
[BenchmarkCategory(Category)]
public class DiagnoserShapesBenchmarks
{
    public const string Category = "diagnoser-shapes";

    // A field, so the JIT cannot fold the result; 1,000 is beyond the Task<int> results the runtime caches.
    private int _value = 1_000;

    [Benchmark(Baseline = true)]
    public int TaskOfInt() => AddOneAsync(_value).GetAwaiter().GetResult();

    [Benchmark]
    public int ValueTaskOfInt() => AddOneValueTaskAsync(_value).GetAwaiter().GetResult();

    [Benchmark]
    public int TaskYield() => AddOneAfterYieldAsync(_value).GetAwaiter().GetResult();

    [MethodImpl(MethodImplOptions.NoInlining)]
    internal static async Task<int> AddOneAsync(int value)
    {
        if (value < 0)
        {
            await Task.Yield();
        }
        return value + 1;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async ValueTask<int> AddOneValueTaskAsync(int value)
    {
        if (value < 0)
        {
            await Task.Yield();
        }
        return value + 1;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static async Task<int> AddOneAfterYieldAsync(int value)
    {
        await Task.Yield();
        return value + 1;
    }
}
