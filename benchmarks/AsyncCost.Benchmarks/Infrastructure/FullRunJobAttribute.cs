using BenchmarkDotNet.Attributes;

namespace AsyncCost.Benchmarks.Infrastructure;

/// <summary>Runs a suite with <see cref="BenchmarkConfig.FullRun"/>, the documented full run's job.</summary>
[AttributeUsage(AttributeTargets.Class)]
public sealed class FullRunJobAttribute : JobConfigBaseAttribute
{
    public FullRunJobAttribute()
        : base(BenchmarkConfig.FullRun)
    {
    }
}
