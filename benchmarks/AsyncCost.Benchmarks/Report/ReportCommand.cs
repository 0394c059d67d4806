using System.Text.Json;
using AsyncCost.Benchmarks.ContextSwitches;

namespace AsyncCost.Benchmarks.Report;

/// <summary>
/// `report`: turns the exports of a full run (BenchmarkDotNet's full JSON under benchmarks/results, the seed-000
/// console run beside them) into benchmarks/RESULTS.md, its SVG charts, the analyzer's CostModel.cs and the figures
/// quoted between cost markers in docs/rules/*.md.
/// </summary>
public static class ReportCommand
{
    private const string Usage =
        "usage: report [--results <dir, default benchmarks/results>] [--output <file, default benchmarks/RESULTS.md>]\n" +
        "              [--cost-model <file, default analyzers/AsyncCost.Analyzers/CostModel.cs>] [--docs <dir, default docs/rules>]";

    public static int Run(string[] args)
    {
        var root = RepositoryRoot();
        var results = Path.Combine(root, "benchmarks", "results");
        var output = Path.Combine(root, "benchmarks", "RESULTS.md");
        var costModel = Path.Combine(root, "analyzers", "AsyncCost.Analyzers", "CostModel.cs");
        var docs = Path.Combine(root, "docs", "rules");
        for (var i = 0; i < args.Length; i++)
        {
            if (i + 1 >= args.Length)
                return Fail($"option '{args[i]}' needs a value.");
            var value = Path.GetFullPath(args[i + 1]);
            switch (args[i])
            {
                case "--results": results = value; break;
                case "--output": output = value; break;
                case "--cost-model": costModel = value; break;
                case "--docs": docs = value; break;
                default: return Fail($"unknown option '{args[i]}'.");
            }
            i++;
        }

        var main = BenchmarkExports.Load(Path.Combine(results, ResultsLayout.MainFolder));
        if (main.Host is null)
            return Fail($"no BenchmarkDotNet exports (*-report-full.json) under {Path.Combine(results, ResultsLayout.MainFolder)}: run benchmarks/full-run.sh first.");
        var runtimeAsync = BenchmarkExports.Load(Path.Combine(results, ResultsLayout.RuntimeAsyncFolder));
        var consolePath = Path.Combine(results, ResultsLayout.ConsoleRunFile);
        var consoleRun = File.Exists(consolePath)
            ? JsonSerializer.Deserialize<ConsoleRun>(File.ReadAllText(consolePath), ConsoleRun.JsonOptions)
            : null;
        var runtimeAsyncNote = Path.Combine(results, ResultsLayout.RuntimeAsyncNoteFile);

        var figures = CostFigures.From(main);
        var chartsFolder = Path.Combine(Path.GetDirectoryName(output)!, "charts");
        Directory.CreateDirectory(chartsFolder);
        var runConditions = Path.Combine(results, ResultsLayout.RunConditionsFile);
        var webShopOverhead = Path.Combine(results, ResultsLayout.WebShopOverheadFile);
        var document = new ResultsDocument(main, runtimeAsync, consoleRun,
            File.Exists(runtimeAsyncNote) ? File.ReadAllText(runtimeAsyncNote).Trim() : null,
            File.Exists(runConditions) ? File.ReadAllLines(runConditions).Where(l => l.Length > 0).ToList() : [],
            figures,
            File.Exists(webShopOverhead) ? File.ReadAllText(webShopOverhead).Trim() : null);
        var charts = document.WriteCharts(chartsFolder);
        File.WriteAllText(output, document.Render(Path.GetRelativePath(Path.GetDirectoryName(output)!, chartsFolder), charts));
        Console.WriteLine($"Wrote {Path.GetRelativePath(root, output)} and {charts.Count} chart(s) in {Path.GetRelativePath(root, chartsFolder)}");

        if (figures.IsComplete)
        {
            File.WriteAllText(costModel, CostModelWriter.Render(figures, main.Host));
            Console.WriteLine($"Wrote {Path.GetRelativePath(root, costModel)}");
            var refreshed = CostModelWriter.RefreshDocs(docs, figures);
            Console.WriteLine($"Refreshed {refreshed} cost marker(s) in {Path.GetRelativePath(root, docs)}");
        }
        else
        {
            Console.Error.WriteLine($"report: CostModel.cs left as it is: the exports lack {string.Join(", ", figures.Missing)}.");
        }
        return 0;
    }

    private static int Fail(string message)
    {
        Console.Error.WriteLine("report: " + message);
        Console.Error.WriteLine(Usage);
        return 2;
    }

    /// <summary>The folder holding AsyncCost.sln, from the working directory up.</summary>
    private static string RepositoryRoot()
    {
        for (var folder = new DirectoryInfo(Environment.CurrentDirectory); folder is not null; folder = folder.Parent)
        {
            if (File.Exists(Path.Combine(folder.FullName, "AsyncCost.sln")))
                return folder.FullName;
        }
        return Environment.CurrentDirectory;
    }
}

/// <summary>Where the full run puts its raw exports under benchmarks/results (benchmarks/full-run.sh uses the same names).</summary>
public static class ResultsLayout
{
    public const string MainFolder = "main";
    public const string RuntimeAsyncFolder = "runtime-async";
    public const string ConsoleRunFile = "context-switch-console.json";
    public const string RuntimeAsyncNoteFile = "runtime-async-build.txt";
    public const string RunConditionsFile = "run-conditions.txt";

    /// <summary>The output of `webshop-overhead`, saved by whoever ran it (the command prints it).</summary>
    public const string WebShopOverheadFile = "WebShopOverhead.md";
}
