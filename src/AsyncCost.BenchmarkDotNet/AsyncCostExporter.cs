using System.Globalization;
using AsyncCost.Report;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Reports;

namespace AsyncCost.BenchmarkDotNet;

/// <summary>The async methods behind each benchmark's figures, beside BenchmarkDotNet's own exports:
/// <c>&lt;title&gt;-asynccost.md</c> (a table per benchmark) and <c>&lt;title&gt;-asynccost.csv</c> (one row per method).</summary>
internal sealed class AsyncCostExporter(AsyncCostDiagnoser diagnoser) : IExporter
{
    public string Name => "asynccost";

    public void ExportToLog(Summary summary, ILogger logger)
    {
        foreach (var line in Markdown(summary))
        {
            logger.WriteLine(line);
        }
    }

    public IEnumerable<string> ExportToFiles(Summary summary, ILogger consoleLogger)
    {
        var markdown = Path.Combine(summary.ResultsDirectoryPath, $"{summary.Title}-asynccost.md");
        var csv = Path.Combine(summary.ResultsDirectoryPath, $"{summary.Title}-asynccost.csv");
        File.WriteAllLines(markdown, Markdown(summary));
        File.WriteAllLines(csv, Csv(summary));
        return [markdown, csv];
    }

    private IEnumerable<(string Benchmark, BenchmarkAsyncCost Cost)> Benchmarks(Summary summary)
    {
        var results = diagnoser.Results;
        return summary.BenchmarksCases.Where(results.ContainsKey).Select(c => (c.DisplayInfo, results[c]));
    }

    private IEnumerable<string> Markdown(Summary summary)
    {
        yield return "# Async methods per benchmark (AsyncCost)";
        yield return "";
        yield return "Per operation. ~ marks an estimate with its 95 % bound (allocation pass, sampled); hops and waits are exact counts (hop pass); - is an exact 0, NA a figure not measured.";
        foreach (var (benchmark, cost) in Benchmarks(summary))
        {
            yield return "";
            yield return $"## {benchmark}";
            yield return "";
            yield return $"Allocation pass: {Count(cost.AllocationOperations)} operations; hop pass: {(cost.HopOperations > 0 ? Count(cost.HopOperations) + " operations" : "did not run")}.";
            yield return "";
            yield return "| Method | Bytes/op | State machines/op | Hops/op | Blocking waits/op |";
            yield return "| --- | ---: | ---: | ---: | ---: |";
            foreach (var method in cost.Methods)
            {
                yield return $"| {method.DisplayName} | {Text(method.Bytes)} | {Text(method.StateMachines)} | {Text(method.Hops)} | {Text(method.BlockingWaits)} |";
            }
            foreach (var unattributed in cost.AllocationReport.UnattributedAllocations.Take(5))
            {
                yield return $"| (unattributed) {unattributed.TypeName} | {Text(unattributed.Bytes.Per(cost.AllocationOperations))} | | | |";
            }
            foreach (var warning in cost.AllocationReport.Warnings.Concat(cost.HopReport?.Warnings ?? []))
            {
                yield return "";
                yield return $"- {warning.Code}: {warning.Message}";
            }
        }
    }

    private IEnumerable<string> Csv(Summary summary)
    {
        yield return "Benchmark,MethodKey,BytesPerOp,BytesPerOpBound,StateMachinesPerOp,StateMachinesPerOpBound,HopsPerOp,BlockingWaitsPerOp";
        foreach (var (benchmark, cost) in Benchmarks(summary))
        {
            foreach (var m in cost.Methods)
            {
                yield return string.Join(',', Quoted(benchmark), Quoted(m.MethodKey), Value(m.Bytes), Bound(m.Bytes), Value(m.StateMachines), Bound(m.StateMachines), Value(m.Hops), Value(m.BlockingWaits));
            }
        }
    }

    /// <summary>As the columns print it: "NA" not measured, "-" an exact 0, "~" an estimate with its bound.</summary>
    private static string Text(Figure? figure) => figure switch
    {
        null => AsyncCostMetrics.NotMeasured,
        { Sampled: true } => $"~{Number(figure.Value)} ±{Number(figure.ErrorBound)}",
        { Value: 0 } => "-",
        _ => Number(figure.Value),
    };

    private static string Value(Figure? figure) => figure is null ? "" : figure.Value.ToString("R", CultureInfo.InvariantCulture);

    private static string Bound(Figure? figure) => figure is { Sampled: true } ? figure.ErrorBound.ToString("R", CultureInfo.InvariantCulture) : figure is null ? "" : "0";

    private static string Number(double value) => value.ToString(Math.Abs(value) >= 100 ? "N0" : "0.###", CultureInfo.InvariantCulture);

    private static string Count(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    private static string Quoted(string text) => "\"" + text.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";
}
