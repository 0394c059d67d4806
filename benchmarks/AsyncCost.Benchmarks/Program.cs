using AsyncCost.Benchmarks.Analyzers;
using AsyncCost.Benchmarks.ContextSwitches;
using AsyncCost.Benchmarks.Infrastructure;
using AsyncCost.Benchmarks.Report;
using BenchmarkDotNet.Running;

// Modes: `report` (exports -> RESULTS.md, charts, CostModel.cs, docs figures), `context-switch-console` (seed 000's
// own method), `analyzer-speed` (the AC rules' share of compile time, per rule), `tracing-overhead`, `rundown-cost` (what naming
// methods in a trace costs), `hop-keywords` (events and cost per hop of each candidate hop-pass keyword set), `webshop-overhead` (what the
// in-process OpenTelemetry instrumentation costs samples/WebShop's throughput); anything else goes to BenchmarkDotNet's
// switcher, so `--filter`, `--job Dry`, `--list` and the exporters work as usual.
return args switch
{
    ["report", .. var rest] => ReportCommand.Run(rest),
    ["context-switch-console", .. var rest] => ContextSwitchConsole.Run(rest),
    [AnalyzerSpeedCommand.Name, .. var rest] => AnalyzerSpeedCommand.Run(rest),
    [AsyncCost.Benchmarks.Tracing.TracingOverheadCommand.Name, .. var rest] => AsyncCost.Benchmarks.Tracing.TracingOverheadCommand.Run(rest),
    [AsyncCost.Benchmarks.Tracing.RundownCostCommand.Name, .. var rest] => AsyncCost.Benchmarks.Tracing.RundownCostCommand.Run(rest),
    [AsyncCost.Benchmarks.Tracing.HopKeywordsCommand.Name, .. var rest] => AsyncCost.Benchmarks.Tracing.HopKeywordsCommand.Run(rest),
    [AsyncCost.Benchmarks.Tracing.WebShopOverheadCommand.Name, .. var rest] => AsyncCost.Benchmarks.Tracing.WebShopOverheadCommand.Run(rest),
    _ => RunBenchmarks(args),
};

static int RunBenchmarks(string[] args)
{
    var dry = BenchmarkConfig.TakeDryJob(ref args);
    var summaries = BenchmarkSwitcher.FromAssembly(typeof(BenchmarkConfig).Assembly).Run(args, BenchmarkConfig.Create(dry));
    return summaries.Any(s => s.HasCriticalValidationErrors || s.Reports.Any(r => !r.Success || r.ResultStatistics is null)) ? 1 : 0;
}
