using BenchmarkDotNet.Running;

// Entry point: BenchmarkDotNet's switcher, so `--filter`, `--job Dry` and the exporters work as usual.
if (args is [AsyncCost.Benchmarks.Analyzers.AnalyzerSpeedCommand.Name, ..])
{
    return AsyncCost.Benchmarks.Analyzers.AnalyzerSpeedCommand.Run(args[1..]);
}
BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
return 0;
