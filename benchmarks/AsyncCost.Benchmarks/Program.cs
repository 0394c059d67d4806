using AsyncCost.Benchmarks.Analyzers;
using AsyncCost.Benchmarks.ContextSwitches;
using AsyncCost.Benchmarks.Infrastructure;
using BenchmarkDotNet.Running;

// Three modes: `context-switch-console` (seed 000's own method), `analyzer-speed` (the AC rules' share of compile
// time, per rule); anything else goes to BenchmarkDotNet's switcher, so `--filter`, `--job Dry`, `--list` and the exporters work as usual.
return args switch
{
    ["context-switch-console", .. var rest] => ContextSwitchConsole.Run(rest),
    [AnalyzerSpeedCommand.Name, .. var rest] => AnalyzerSpeedCommand.Run(rest),
    [AsyncCost.Benchmarks.Tracing.TracingOverheadCommand.Name, .. var rest] => AsyncCost.Benchmarks.Tracing.TracingOverheadCommand.Run(rest),
    _ => RunBenchmarks(args),
};

static int RunBenchmarks(string[] args)
{
    var dry = BenchmarkConfig.TakeDryJob(ref args);
    var summaries = BenchmarkSwitcher.FromAssembly(typeof(BenchmarkConfig).Assembly).Run(args, BenchmarkConfig.Create(dry));
    return summaries.Any(s => s.HasCriticalValidationErrors || s.Reports.Any(r => !r.Success || r.ResultStatistics is null)) ? 1 : 0;
}
