using BenchmarkDotNet.Attributes;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace AsyncCost.Benchmarks.Analyzers;

/// <summary>
/// Compile time of the generated corpus with and without all AC rules: the ratio is the rules' total overhead.
/// Per-rule shares come from the `analyzer-speed` command (CompilationWithAnalyzers telemetry).
/// Corpus sizes: ASYNCCOST_ANALYZER_CORPUS_LINES (comma-separated, default 200000); the CI smoke job sets a small one.
/// </summary>
[MemoryDiagnoser]
[BenchmarkCategory("Analyzers")]
public class AnalyzerSpeedBenchmark
{
    private AsyncCorpus _corpus = null!;

    [ParamsSource(nameof(CorpusSizes))]
    public int Lines { get; set; }

    public static IEnumerable<int> CorpusSizes() =>
        (Environment.GetEnvironmentVariable("ASYNCCOST_ANALYZER_CORPUS_LINES") ?? "200000")
            .Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(s => int.Parse(s, System.Globalization.CultureInfo.InvariantCulture));

    [GlobalSetup]
    public void Setup() => _corpus = AsyncCorpus.Generate(Lines);

    [Benchmark(Baseline = true)]
    public int Compile() => _corpus.CreateCompilation().GetDiagnostics().Length;

    [Benchmark]
    public int CompileWithAllRules() =>
        _corpus.CreateCompilation()
            .WithAnalyzers(AsyncCostRules.All(), AsyncCostRules.Options(logExecutionTime: false))
            .GetAllDiagnosticsAsync().GetAwaiter().GetResult().Length;
}
