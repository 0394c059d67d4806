using AsyncCost.BenchmarkDotNet;
using BenchmarkDotNet.Attributes;
using BenchmarkDotNet.Jobs;
using Perfolizer.Horology;

namespace AsyncCost.Benchmarks.AsyncMethods;

/// <summary>
/// The diagnoser on a job that does not fix IterationCount (BenchmarkDotNet picks it, as its default job does): no hop
/// figures to give, so no extra run; the allocation pass rides the benchmark's own run, over the untimed extra-statistics
/// iteration MemoryDiagnoser reads. A short job of that kind, so the test of it stays short.
/// </summary>
[MemoryDiagnoser]
[AsyncCostDiagnoser]
[ShortIterationRangeJob]
public class DiagnoserWithoutHopsBenchmarks
{
    private int _value = 1_000;

    [Benchmark]
    public int TaskOfInt() => DiagnoserShapesBenchmarks.AddOneAsync(_value).GetAwaiter().GetResult();
}

/// <summary>A range of actual iterations (BenchmarkDotNet stops within it once the mean is stable), not a count.</summary>
[AttributeUsage(AttributeTargets.Class)]
file sealed class ShortIterationRangeJobAttribute() : JobConfigBaseAttribute(Job.Default
    .WithWarmupCount(2)
    .WithMinIterationCount(4)
    .WithMaxIterationCount(6)
    .WithIterationTime(TimeInterval.FromMilliseconds(100))
    .WithId("IterationRange"));
