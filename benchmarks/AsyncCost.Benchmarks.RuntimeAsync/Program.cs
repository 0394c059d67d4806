using System.Diagnostics;
using AsyncCost.Benchmarks.Infrastructure;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Running;

// Seed 003's suites compiled with runtime-handled async. The runtime refuses to load this assembly's async methods
// unless DOTNET_RuntimeAsync=1 (TypeLoadException "the format is invalid"; no runtimeconfig knob exists for it), both
// here — BenchmarkDotNet reflects over the types — and in every benchmark process (set through the jobs).
const string RuntimeAsyncVariable = "DOTNET_RuntimeAsync";
if (Environment.GetEnvironmentVariable(RuntimeAsyncVariable) != "1")
{
    var self = new ProcessStartInfo(Environment.ProcessPath!);
    foreach (var arg in args)
        self.ArgumentList.Add(arg);
    self.Environment[RuntimeAsyncVariable] = "1";
    using var child = Process.Start(self)!;
    child.WaitForExit();
    return child.ExitCode;
}

var dry = BenchmarkConfig.TakeDryJob(ref args);
var config = BenchmarkConfig.Create(dry, new EnvironmentVariable(RuntimeAsyncVariable, "1"));
var summaries = BenchmarkSwitcher.FromAssembly(typeof(BenchmarkConfig).Assembly).Run(args, config);
return summaries.Any(s => s.HasCriticalValidationErrors || s.Reports.Any(r => !r.Success || r.ResultStatistics is null)) ? 1 : 0;
