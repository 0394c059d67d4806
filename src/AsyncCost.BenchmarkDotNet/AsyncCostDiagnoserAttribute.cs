using BenchmarkDotNet.Configs;

namespace AsyncCost.BenchmarkDotNet;

/// <summary>Adds <see cref="AsyncCostDiagnoser.Default"/> and its columns (<see cref="AsyncCostDiagnoser.Columns"/>) to a benchmark class's configuration.</summary>
[AttributeUsage(AttributeTargets.Class | AttributeTargets.Assembly)]
public sealed class AsyncCostDiagnoserAttribute : Attribute, IConfigSource
{
    /// <summary>The configuration the attribute adds.</summary>
    public IConfig Config { get; } = ManualConfig.CreateEmpty().AddDiagnoser(AsyncCostDiagnoser.Default).AddColumnProvider(AsyncCostDiagnoser.Columns);
}
