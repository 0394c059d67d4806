using AsyncCost.Benchmarks.Infrastructure;
using BenchmarkDotNet.Attributes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace AsyncCost.Benchmarks.Analyzers;

/// <summary>
/// Compile time of the generated corpus with and without all AC rules: the ratio is the rules' total overhead.
/// Per-rule shares and the scaling check come from the `analyzer-speed` command (CompilationWithAnalyzers telemetry).
/// Each invocation compiles the whole corpus (tens of seconds at 200,000 lines), hence one invocation per iteration.
/// </summary>
[MemoryDiagnoser]
[BenchmarkCategory("Analyzers")]
[SimpleJob(launchCount: 1, warmupCount: 1, iterationCount: 3, invocationCount: 1, id: "Compile")]
public class AnalyzerSpeedBenchmark
{
    private AsyncCorpus _corpus = null!;

    [Params(200_000)]
    public int Lines { get; set; }

    // The dry job proves the benchmark works on the smallest corpus instead of paying for a full compile.
    [GlobalSetup]
    public void Setup() => _corpus = AsyncCorpus.Generate(BenchmarkConfig.IsDryRun ? AsyncCorpus.MinimumLines : Lines);

    [Benchmark(Baseline = true)]
    public int Compile() => _corpus.CreateCompilation().GetDiagnostics().Length;

    [Benchmark]
    public int CompileWithAllRules() =>
        _corpus.CreateCompilation()
            .WithAnalyzers(AsyncCostRules.All(), AsyncCostRules.Options(logExecutionTime: false))
            .GetAllDiagnosticsAsync().GetAwaiter().GetResult().Length;
}
