using System.Collections.Immutable;
using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.Json;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.Diagnostics;

namespace AsyncCost.Benchmarks.Analyzers;

/// <summary>
/// `analyzer-speed [--lines N] [--repeat K] [--tiny-runs T] [--tiny-only] [--out DIR]`: compiles the generated corpus at
/// N and 2N lines (K runs each, default 1: a 200,000-line run takes minutes on a busy 2-core machine), runs every
/// AC rule through CompilationWithAnalyzers with execution-time telemetry, and reports each rule's time as a
/// percentage of the compilation's own time, plus how each grew from N to 2N lines (2.0 is linear). Then the same
/// rules on a tiny compilation (T runs, default 21), where a rule's fixed per-compilation cost is all there is: each
/// rule alone (what it costs when it is the first to ask the compilation for anything) and all together.
/// `--tiny-only` skips the corpus. Writes AnalyzerSpeed.md and AnalyzerSpeed.json to DIR (default
/// BenchmarkDotNet.Artifacts/results).
/// </summary>
public static class AnalyzerSpeedCommand
{
    public const string Name = "analyzer-speed";

    private static readonly JsonSerializerOptions JsonOptions = new() { WriteIndented = true };

    public static int Run(string[] args)
    {
        int lines = 200_000, repeat = 1, tinyRuns = 21;
        var tinyOnly = false;
        var output = Path.Combine("BenchmarkDotNet.Artifacts", "results");
        for (var i = 0; i < args.Length; i++)
        {
            var value = i + 1 < args.Length ? args[i + 1] : null;
            switch (args[i])
            {
                case "--lines" when int.TryParse(value, CultureInfo.InvariantCulture, out lines) && lines >= AsyncCorpus.MinimumLines:
                case "--repeat" when int.TryParse(value, CultureInfo.InvariantCulture, out repeat) && repeat >= 1:
                case "--tiny-runs" when int.TryParse(value, CultureInfo.InvariantCulture, out tinyRuns) && tinyRuns >= 1:
                case "--out" when value is not null && (output = value) is not null:
                    i++;
                    break;
                case "--tiny-only":
                    tinyOnly = true;
                    break;
                default:
                    Console.Error.WriteLine($"{Name}: bad argument '{args[i]}'. Usage: {Name} [--lines N (>= {AsyncCorpus.MinimumLines})] [--repeat K] [--tiny-runs T] [--tiny-only] [--out DIR]");
                    return 2;
            }
        }

        var rules = AsyncCostRules.All();
        Console.WriteLine($"{Name}: {rules.Length} rules ({string.Join(", ", rules.Select(AsyncCostRules.Id))}); load average {LoadAverage()}");
        SizeResult? small = null, large = null;
        if (!tinyOnly)
        {
            Console.WriteLine($"{Name}: corpus of about {lines:N0} lines, then each file doubled, median of {repeat}");
            // Warm-up: the compiler's and the rules' code must reach its optimized JIT tier before timing.
            _ = Measure(AsyncCorpus.Generate(Math.Max(lines / 4, AsyncCorpus.MinimumLines)), rules, repeat: 1);
            var corpus = AsyncCorpus.Generate(lines);
            small = Measure(corpus, rules, repeat);
            large = Measure(corpus.Doubled(), rules, repeat);
        }
        var tiny = MeasureTiny(AsyncCorpus.Contracts(), rules, tinyRuns);

        var report = Render(small, large, repeat, tiny, tinyRuns);
        Console.WriteLine(report);
        Directory.CreateDirectory(output);
        File.WriteAllText(Path.Combine(output, "AnalyzerSpeed.md"), report);
        File.WriteAllText(Path.Combine(output, "AnalyzerSpeed.json"), JsonSerializer.Serialize(new { small, large, tiny }, JsonOptions));
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

    public sealed record TinyRuleTime(string Rule, double AloneMilliseconds, double BoundMilliseconds, double TogetherMilliseconds);

    public sealed record TinyResult(int Lines, int References, double CompileMilliseconds, string LoadBefore, string LoadAfter, IReadOnlyList<TinyRuleTime> Rules);

    // Each run builds fresh compilations (a compilation caches what rules ask of it), one per rule alone and one for
    // all rules together, round-robin so that every rule sees the same machine load; medians over the runs.
    private static TinyResult MeasureTiny(AsyncCorpus tiny, ImmutableArray<DiagnosticAnalyzer> rules, int runs)
    {
        var loadBefore = LoadAverage();
        double RulesTime(ImmutableArray<DiagnosticAnalyzer> measured, DiagnosticAnalyzer rule, bool bindReferences = false)
        {
            var compilation = tiny.CreateCompilation();
            if (bindReferences)
            {
                // What the compiler does first anyway: without it, the first rule to ask for a type pays for it.
                _ = compilation.SourceModule.ReferencedAssemblySymbols;
            }
            var withAnalyzers = compilation.WithAnalyzers(measured, AsyncCostRules.Options(logExecutionTime: true));
            _ = withAnalyzers.GetAnalyzerDiagnosticsAsync().GetAwaiter().GetResult();
            return withAnalyzers.GetAnalyzerTelemetryInfoAsync(rule, CancellationToken.None).GetAwaiter().GetResult().ExecutionTime.TotalMilliseconds;
        }
        foreach (var rule in rules)
        {
            _ = RulesTime([rule], rule); // warm-up: JIT the rule's code before timing it
        }
        var compile = new List<double>();
        var alone = rules.ToDictionary(r => r, _ => new List<double>());
        var bound = rules.ToDictionary(r => r, _ => new List<double>());
        var together = rules.ToDictionary(r => r, _ => new List<double>());
        for (var run = 0; run < runs; run++)
        {
            var stopwatch = Stopwatch.StartNew();
            _ = tiny.CreateCompilation().GetDiagnostics();
            compile.Add(stopwatch.Elapsed.TotalMilliseconds);
            foreach (var rule in rules)
            {
                alone[rule].Add(RulesTime([rule], rule));
                bound[rule].Add(RulesTime([rule], rule, bindReferences: true));
            }
            var withAll = tiny.CreateCompilation().WithAnalyzers(rules, AsyncCostRules.Options(logExecutionTime: true));
            _ = withAll.GetAnalyzerDiagnosticsAsync().GetAwaiter().GetResult();
            foreach (var rule in rules)
            {
                together[rule].Add(withAll.GetAnalyzerTelemetryInfoAsync(rule, CancellationToken.None).GetAwaiter().GetResult().ExecutionTime.TotalMilliseconds);
            }
        }
        return new TinyResult(
            tiny.Lines,
            AsyncCorpus.References.Length,
            Median(compile),
            loadBefore,
            LoadAverage(),
            rules.Select(r => new TinyRuleTime(AsyncCostRules.Id(r), Median(alone[r]), Median(bound[r]), Median(together[r]))).ToList());
    }

    // The 1-minute load average (Linux), written beside the figures: on a shared 2-core machine it decides what they mean.
    private static string LoadAverage() =>
        File.Exists("/proc/loadavg") ? File.ReadAllText("/proc/loadavg").Split(' ')[0] : "unknown";

    private static string Percent(double ms, double compile) => (100 * ms / compile).ToString("0.00", CultureInfo.InvariantCulture) + " %";

    private static string Fixed(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);

    private static string Render(SizeResult? small, SizeResult? large, int repeat, TinyResult tiny, int tinyRuns)
    {
        var text = new StringBuilder();
        var command = small is null ? $"{Name} --tiny-only --tiny-runs {tinyRuns}" : $"{Name} --lines {small.Lines} --repeat {repeat} --tiny-runs {tinyRuns}";
        text.AppendLine("# Analyzer speed")
            .AppendLine()
            .AppendLine(CultureInfo.InvariantCulture, $"Generated by `dotnet run -c Release --project benchmarks/AsyncCost.Benchmarks -- {command} --out benchmarks/results`; do not edit by hand.")
            .AppendLine()
            .AppendLine(CultureInfo.InvariantCulture, $"Machine: {Environment.ProcessorCount} cores, {System.Runtime.InteropServices.RuntimeInformation.OSDescription}, .NET {Environment.Version}; run {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC.")
            .AppendLine();
        if (small is not null && large is not null)
        {
            RenderCorpus(text, small, large);
        }
        text.AppendLine("## A tiny compilation")
            .AppendLine()
            .AppendLine(CultureInfo.InvariantCulture, $"A contracts library of {tiny.Lines} lines (interfaces, a record, a struct; no loops, no awaits) against the same {tiny.References} framework references, where a rule's fixed per-compilation cost is all there is. Medians of {tinyRuns} runs, each on fresh compilations, rules round-robin: *alone* = the rule by itself on a fresh compilation (it pays for whatever it is first to ask: binding the references, which the compiler does anyway), *alone, references bound* = the same after the compilation has bound its references (the rule's own cost), *together* = its telemetry with all rules in one run on a fresh compilation (the first rule to run pays the binding). Load average (1 min) {tiny.LoadBefore} before, {tiny.LoadAfter} after.")
            .AppendLine()
            .AppendLine("| Rule | Alone | Alone, references bound | Together | Share of all rules (together) |")
            .AppendLine("|------|---:|---:|---:|---:|");
        var togetherTotal = tiny.Rules.Sum(r => r.TogetherMilliseconds);
        foreach (var rule in tiny.Rules)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"| {rule.Rule} | {Fixed(rule.AloneMilliseconds, "0.0")} ms | {Fixed(rule.BoundMilliseconds, "0.00")} ms | {Fixed(rule.TogetherMilliseconds, "0.0")} ms | {Fixed(100 * rule.TogetherMilliseconds / Math.Max(togetherTotal, 0.001), "0")} % |");
        }
        text.AppendLine(CultureInfo.InvariantCulture, $"| **All rules** | {Fixed(tiny.Rules.Sum(r => r.AloneMilliseconds), "0.0")} ms | {Fixed(tiny.Rules.Sum(r => r.BoundMilliseconds), "0.00")} ms | {Fixed(togetherTotal, "0.0")} ms | 100 % |")
            .AppendLine(CultureInfo.InvariantCulture, $"| Compile (no analyzers) | {Fixed(tiny.CompileMilliseconds, "0.0")} ms | | | |");
        return text.ToString();
    }

    private static void RenderCorpus(StringBuilder text, SizeResult small, SizeResult large)
    {
        text.AppendLine("## The generated corpus")
            .AppendLine()
            .AppendLine(CultureInfo.InvariantCulture, $"Generated async-heavy corpus (`benchmarks/AsyncCost.Benchmarks/Analyzers/AsyncCorpus.cs`), {AsyncCorpus.FileCount} files; the second size doubles each file. Each run is one `CompilationWithAnalyzers.GetAnalyzerDiagnosticsAsync()` on a fresh single-threaded compilation with sequential analysis: rule time = its execution-time telemetry, compile = the rest of that run's wall time. Medians of the runs.")
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
            .AppendLine(CultureInfo.InvariantCulture, $"| Compile | | {Fixed(small.CompileMilliseconds, "0")} ms | 100 % | {Fixed(large.CompileMilliseconds, "0")} ms | 100 % | ×{Fixed(large.CompileMilliseconds / small.CompileMilliseconds, "0.00")} |")
            .AppendLine();
    }

    private static double Median(List<double> values)
    {
        values.Sort();
        return values[values.Count / 2];
    }
}
