using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.Json;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace AsyncCost.Benchmarks.Analyzers;

/// <summary>
/// `analyzer-speed [--lines N] [--repeat K] [--out DIR]`: compiles the generated corpus at N and 2N lines (K runs each,
/// default 1: a 200,000-line run takes minutes on a busy 2-core machine), runs every
/// AC rule through CompilationWithAnalyzers with execution-time telemetry, and reports each rule's time as a
/// percentage of the compilation's own time, plus how each grew from N to 2N lines (2.0 is linear).
/// Writes AnalyzerSpeed.md and AnalyzerSpeed.json to DIR (default BenchmarkDotNet.Artifacts/results).
/// </summary>
public static class AnalyzerSpeedCommand
{
    public const string Name = "analyzer-speed";

    private static readonly JsonSerializerOptions JsonOptions = new() { WriteIndented = true };

    public static int Run(string[] args)
    {
        int lines = 200_000, repeat = 1;
        var output = Path.Combine("BenchmarkDotNet.Artifacts", "results");
        for (var i = 0; i < args.Length; i++)
        {
            var value = i + 1 < args.Length ? args[i + 1] : null;
            switch (args[i])
            {
                case "--lines" when int.TryParse(value, CultureInfo.InvariantCulture, out lines) && lines >= AsyncCorpus.MinimumLines:
                case "--repeat" when int.TryParse(value, CultureInfo.InvariantCulture, out repeat) && repeat >= 1:
                case "--out" when value is not null && (output = value) is not null:
                    i++;
                    break;
                default:
                    Console.Error.WriteLine($"{Name}: bad argument '{args[i]}'. Usage: {Name} [--lines N (>= {AsyncCorpus.MinimumLines})] [--repeat K] [--out DIR]");
                    return 2;
            }
        }

        var rules = AsyncCostRules.All();
        Console.WriteLine($"{Name}: {rules.Length} rules ({string.Join(", ", rules.Select(AsyncCostRules.Id))}), corpus of about {lines:N0} lines, then each file doubled, median of {repeat}");
        // Warm-up: the compiler's and the rules' code must reach its optimized JIT tier before timing.
        _ = Measure(AsyncCorpus.Generate(Math.Max(lines / 4, AsyncCorpus.MinimumLines)), rules, repeat: 1);
        var corpus = AsyncCorpus.Generate(lines);
        var small = Measure(corpus, rules, repeat);
        var large = Measure(corpus.Doubled(), rules, repeat);

        var report = Render(small, large, repeat);
        Console.WriteLine(report);
        Directory.CreateDirectory(output);
        File.WriteAllText(Path.Combine(output, "AnalyzerSpeed.md"), report);
        File.WriteAllText(Path.Combine(output, "AnalyzerSpeed.json"), JsonSerializer.Serialize(new { small, large }, JsonOptions));
        Console.WriteLine($"{Name}: wrote {Path.Combine(output, "AnalyzerSpeed.md")} and AnalyzerSpeed.json");
        return 0;
    }

    public sealed record RuleTime(string Rule, double Milliseconds, int Findings);

    public sealed record SizeResult(int Lines, double CompileMilliseconds, IReadOnlyList<RuleTime> Rules);

    // One run per repeat: the rules' own time from telemetry, and the compilation's time as the rest of the same run's
    // wall time (CompilationWithAnalyzers binds and diagnoses the whole compilation to feed the rules). Measuring both
    // in one run keeps them under the same machine load, which on a shared machine matters more than anything else.
    private static SizeResult Measure(AsyncCorpus corpus, IReadOnlyList<DiagnosticAnalyzer> rules, int repeat)
    {
        var compileTimes = new List<double>();
        var ruleTimes = rules.ToDictionary(r => r, _ => new List<double>());
        var findings = new Dictionary<string, int>();
        for (var run = 0; run < repeat; run++)
        {
            var stopwatch = Stopwatch.StartNew();
            var withAnalyzers = corpus.CreateCompilation().WithAnalyzers([.. rules], AsyncCostRules.Options(logExecutionTime: true));
            var diagnostics = withAnalyzers.GetAnalyzerDiagnosticsAsync().GetAwaiter().GetResult(); // also runs the compile that feeds the rules
            var wall = stopwatch.Elapsed.TotalMilliseconds;
            if (diagnostics.FirstOrDefault(d => d.Id == "AD0001") is { } crash)
            {
                throw new InvalidOperationException("An analyzer threw on the corpus: " + crash);
            }
            var total = 0.0;
            foreach (var rule in rules)
            {
                var time = withAnalyzers.GetAnalyzerTelemetryInfoAsync(rule, CancellationToken.None).GetAwaiter().GetResult().ExecutionTime.TotalMilliseconds;
                ruleTimes[rule].Add(time);
                total += time;
            }
            compileTimes.Add(wall - total);
            findings = diagnostics.GroupBy(d => d.Id).ToDictionary(g => g.Key, g => g.Count());
        }
        return new SizeResult(
            corpus.Lines,
            Median(compileTimes),
            rules.Select(r => new RuleTime(AsyncCostRules.Id(r), Median(ruleTimes[r]), r.SupportedDiagnostics.Sum(d => findings.GetValueOrDefault(d.Id)))).ToList());
    }

    private static string Render(SizeResult small, SizeResult large, int repeat)
    {
        static string Percent(double ms, double compile) => (100 * ms / compile).ToString("0.00", CultureInfo.InvariantCulture) + " %";
        static string Fixed(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);

        var text = new StringBuilder();
        text.AppendLine("# Analyzer speed")
            .AppendLine()
            .AppendLine(CultureInfo.InvariantCulture, $"Generated by `dotnet run -c Release --project benchmarks/AsyncCost.Benchmarks -- {Name} --lines {small.Lines} --repeat {repeat} --out benchmarks/results`; do not edit by hand.")
            .AppendLine()
            .AppendLine(CultureInfo.InvariantCulture, $"Generated async-heavy corpus (`benchmarks/AsyncCost.Benchmarks/Analyzers/AsyncCorpus.cs`), {AsyncCorpus.FileCount} files; the second size doubles each file. Each run is one `CompilationWithAnalyzers.GetAnalyzerDiagnosticsAsync()` on a fresh single-threaded compilation with sequential analysis: rule time = its execution-time telemetry, compile = the rest of that run's wall time. Medians of the runs.")
            .AppendLine()
            .AppendLine(CultureInfo.InvariantCulture, $"Machine: {Environment.ProcessorCount} cores, {System.Runtime.InteropServices.RuntimeInformation.OSDescription}, .NET {Environment.Version}; run {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC.")
            .AppendLine()
            .AppendLine(CultureInfo.InvariantCulture, $"| Rule | Findings ({small.Lines:N0} lines) | Time ({small.Lines:N0} lines) | % of compile | Time ({large.Lines:N0} lines) | % of compile | Growth ×{Fixed((double)large.Lines / small.Lines, "0.00")} lines |")
            .AppendLine("|------|---:|---:|---:|---:|---:|---:|");
        foreach (var (rule, big) in small.Rules.Zip(large.Rules))
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"| {rule.Rule} | {rule.Findings:N0} | {Fixed(rule.Milliseconds, "0")} ms | {Percent(rule.Milliseconds, small.CompileMilliseconds)} | " +
                $"{Fixed(big.Milliseconds, "0")} ms | {Percent(big.Milliseconds, large.CompileMilliseconds)} | ×{Fixed(big.Milliseconds / Math.Max(rule.Milliseconds, 0.001), "0.00")} |");
        }
        double smallTotal = small.Rules.Sum(r => r.Milliseconds), largeTotal = large.Rules.Sum(r => r.Milliseconds);
        text.AppendLine(CultureInfo.InvariantCulture, $"| **All rules** | {small.Rules.Sum(r => r.Findings):N0} | {Fixed(smallTotal, "0")} ms | **{Percent(smallTotal, small.CompileMilliseconds)}** | " +
                $"{Fixed(largeTotal, "0")} ms | **{Percent(largeTotal, large.CompileMilliseconds)}** | ×{Fixed(largeTotal / Math.Max(smallTotal, 0.001), "0.00")} |")
            .AppendLine(CultureInfo.InvariantCulture, $"| Compile | | {Fixed(small.CompileMilliseconds, "0")} ms | 100 % | {Fixed(large.CompileMilliseconds, "0")} ms | 100 % | ×{Fixed(large.CompileMilliseconds / small.CompileMilliseconds, "0.00")} |");
        return text.ToString();
    }

    private static double Median(List<double> values)
    {
        values.Sort();
        return values[values.Count / 2];
    }
}
