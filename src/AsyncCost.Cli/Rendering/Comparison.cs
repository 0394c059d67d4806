using System.Globalization;
using System.Text.Json.Nodes;
using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>One compared figure: its name, how it reads in text, and the two runs' figures (per operation when asked).</summary>
internal sealed record ComparedFigure(string Key, string Name, Func<double, string> Format, Figure? Before, Figure? After, bool PerOperation = false)
{
    /// <summary>The two runs' difference, when both have the figure.</summary>
    public FigureDifference? Difference => Before is not null && After is not null ? new FigureDifference(Before, After) : null;

    /// <summary>True when the difference is inside the noise of an estimate (the bounds overlap): no change can be claimed.</summary>
    public bool WithinNoise => Difference is { Estimated: true, WithinNoise: true };
}

/// <summary>Two measured runs side by side ('compare'): totals, per operation when the operation count is known, and rates.</summary>
internal sealed class Comparison
{
    // The costs the closing sentence speaks of, with the verb and noun that say what changed. Not the whole process's
    // allocated bytes: that counter includes startup and the runtime's own work, which a per-operation figure would charge
    // to the operations.
    private static readonly (string Key, string Verb, string Noun)[] SummaryFigures =
    [
        ("asyncMethodBytes", "allocates", "bytes in async methods"),
        ("hops", "makes", "thread-pool hops"),
        ("voluntaryContextSwitches", "makes", "voluntary context switches (threads blocking)"),
    ];

    private Comparison(string beforeName, string afterName, long? operations, IReadOnlyList<ComparedFigure> figures)
    {
        BeforeName = beforeName;
        AfterName = afterName;
        Operations = operations;
        Figures = figures;
    }

    public string BeforeName { get; }
    public string AfterName { get; }
    public long? Operations { get; }
    public IReadOnlyList<ComparedFigure> Figures { get; }

    /// <param name="operations">How many operations each run did (positive), or null for totals.</param>
    public static Comparison Create(string beforeName, AsyncCostReport before, string afterName, AsyncCostReport after, long? operations)
    {
        var perOp = operations is null ? "" : " per op";
        ComparedFigure Total(string key, string name, Func<double, string> format, Func<AsyncCostReport, Figure?> figure) =>
            new(key, name + perOp, format, PerOp(figure(before), operations), PerOp(figure(after), operations), operations is not null);
        // Context switches per operation when the operations are known (a cost), else per second (a rate).
        ComparedFigure Switches(string key, string name, Func<AsyncCostReport, long?> count) => operations is null
            ? new(key + "PerSecond", name + "/s", Numbers.Count, PerSecond(count(before), before), PerSecond(count(after), after))
            : Total(key, name, Fraction, r => count(r) is { } value ? Figure.Exact(value, FigureSource.OperatingSystem) : null);
        return new Comparison(beforeName, afterName, operations,
        [
            Total("allocatedBytes", "Allocated bytes", Numbers.Bytes, r => r.Totals.AllocatedBytes),
            Total("asyncMethodBytes", "Async-method bytes", Numbers.Bytes, ReportFigures.AsyncMethodBytes),
            Total("hops", "Thread-pool hops", Fraction, r => r.Totals.Hops),
            Total("completedWorkItems", "Work items completed", Fraction, r => r.Totals.CompletedWorkItems),
            Total("lockContentions", "Lock contentions", Fraction, r => r.Totals.LockContentions),
            Switches("voluntaryContextSwitches", "Voluntary context switches", r => r.Totals.VoluntaryContextSwitches),
            Switches("involuntaryContextSwitches", "Involuntary context switches", r => r.Totals.InvoluntaryContextSwitches),
            new("recordedSeconds", "Recorded seconds", Fraction, Figure.Exact(before.Duration.TotalSeconds, FigureSource.OperatingSystem),
                Figure.Exact(after.Duration.TotalSeconds, FigureSource.OperatingSystem)),
        ]);
    }

    /// <summary>
    /// What changed, in one sentence: each cost (async-method bytes, hops, voluntary context switches) that changed beyond
    /// doubt (<see cref="FigureDifference.IsChange"/>), as "N× fewer" or "N× more"; the others are named as unchanged within
    /// the noise, never as a change.
    /// </summary>
    public string Summary()
    {
        string before = RunName(BeforeName), after = RunName(AfterName);
        var per = Operations is null ? "" : " per operation";
        var changed = new List<string>();
        var unchanged = new List<string>();
        var incomparable = new List<string>();
        string? lastVerb = null;
        foreach (var (key, verb, noun) in SummaryFigures)
        {
            if (Figures.FirstOrDefault(f => f.Key == key)?.Difference is not { } difference)
            {
                continue;
            }

            if (!difference.Comparable)
            {
                incomparable.Add(noun);
            }
            else if (difference is { IsChange: true, Ratio: { } ratio })
            {
                // "makes 1.2× fewer hops and 3.0× fewer context switches": a verb is said once for the figures that follow it.
                changed.Add((verb == lastVerb ? "" : verb + " ") + $"{Factor(ratio)} {noun}{per}"
                    + (difference.Estimated ? $" ({Numbers.CompactBound(difference.RatioRelativeBound)})" : ""));
                lastVerb = verb;
            }
            else
            {
                unchanged.Add(noun);
            }
        }

        var tolerance = Numbers.Percent(FigureDifference.RunToRunTolerance).Replace(".0 ", " ", StringComparison.Ordinal);
        var noChange = $"no change beyond the noise or {tolerance} in {JoinAnd(unchanged)}";
        var sentence = changed.Count > 0
            ? $"{after} {JoinAnd(changed)} than {before}; every difference named is outside its bound" + (unchanged.Count > 0 ? "; " + noChange : "")
            : unchanged.Count > 0 ? $"{after} and {before} show {noChange}" : $"{after} and {before} have no costs to compare";
        if (incomparable.Count > 0)
        {
            sentence += $"; {JoinAnd(incomparable)} come from different passes and are not compared";
        }

        return sentence + ".";

        static string Factor(double ratio) => ratio < 1
            ? Times(1 / ratio) + " fewer"
            : Times(ratio) + " more";

        static string Times(double factor) => factor.ToString(factor >= 100 ? "N0" : "0.0", CultureInfo.InvariantCulture) + "×";
    }

    /// <summary>The comparison for people: formatted cells (table, markdown), the summary sentence last.</summary>
    public TextDocument Document()
    {
        var table = new TextTable(Operations is null ? "Before and after" : $"Before and after, per operation ({Numbers.Count(Operations.Value)} operations each)",
            [new("Figure", ColumnAlignment.Left), new("Before"), new("After"), new("After/Before")])
        {
            Note = "~ marks an estimate with its error bound (95 %); ≈ marks a difference within the noise (the two bounds overlap), "
                + "which is no evidence of a change. Allocated bytes are the whole process's (startup included); async-method bytes come "
                + "from the allocation pass (TPL events off); hops from the hop pass; context switches from /proc over the whole session.",
        };
        foreach (var figure in Figures)
        {
            table.AddRow(figure.Name, Numbers.Figure(figure.Before, figure.Format), Numbers.Figure(figure.After, figure.Format), RatioCell(figure));
        }

        return new TextDocument("AsyncCost comparison", [$"Before: {BeforeName}", $"After: {AfterName}"], [table]) { Conclusion = Summary() };
    }

    /// <summary>The comparison for scripts and spreadsheets (csv): plain invariant numbers, empty for a missing figure.</summary>
    public TextTable Raw()
    {
        var table = new TextTable("comparison",
        [
            new("figure", ColumnAlignment.Left), new("perOperation"), new("before"), new("beforeErrorBound"), new("after"), new("afterErrorBound"),
            new("ratio"), new("ratioRelativeBound"), new("withinNoise"),
        ]);
        foreach (var figure in Figures)
        {
            table.AddRow(figure.Key, figure.PerOperation ? "true" : "false",
                Numbers.Raw(figure.Before?.Value), Numbers.Raw(figure.Before?.ErrorBound), Numbers.Raw(figure.After?.Value), Numbers.Raw(figure.After?.ErrorBound),
                Numbers.Raw(figure.Difference?.Ratio), Numbers.Raw(figure.Difference?.RatioRelativeBound), figure.WithinNoise ? "true" : "false");
        }

        return table;
    }

    /// <summary>The comparison as one JSON object (json): the runs, the operation count, each figure with its kind and bound, and the summary.</summary>
    public string Json()
    {
        var figures = new JsonArray();
        foreach (var figure in Figures)
        {
            figures.Add(new JsonObject
            {
                ["figure"] = figure.Key,
                ["name"] = figure.Name,
                ["perOperation"] = figure.PerOperation,
                ["before"] = FigureJson(figure.Before),
                ["after"] = FigureJson(figure.After),
                ["ratio"] = figure.Difference?.Ratio,
                ["ratioRelativeBound"] = figure.Difference?.RatioRelativeBound,
                ["withinNoise"] = figure.WithinNoise,
            });
        }

        return new JsonObject
        {
            ["before"] = BeforeName,
            ["after"] = AfterName,
            ["operations"] = Operations,
            ["figures"] = figures,
            ["summary"] = Summary(),
        }.ToJsonString(AsyncCostReportJson.Options);
    }

    private static JsonObject? FigureJson(Figure? figure) => figure is null ? null : new JsonObject
    {
        ["value"] = figure.Value,
        ["kind"] = ReportDocument.KindName(figure.Kind),
        ["errorBound"] = figure.ErrorBound,
        ["relativeError"] = figure.RelativeError,
    };

    // "0.24× ±9%" for estimates outside the noise, "≈ 1.12× (noise)" inside it, "0.50×" for exact figures.
    internal static string RatioCell(ComparedFigure figure)
    {
        if (figure.Difference is not { } difference)
        {
            return "-";
        }

        if (!difference.Comparable)
        {
            return "passes differ";
        }

        // No ratio to an estimate of zero (a run that sampled nothing), but its bound still says whether the runs differ.
        var text = difference.Ratio is { } ratio ? ratio.ToString("0.00", CultureInfo.InvariantCulture) + "×" : "";
        return figure.WithinNoise ? (text.Length == 0 ? "≈ (noise)" : $"≈ {text} (noise)")
            : text.Length == 0 ? "-"
            : difference.Estimated ? text + " " + Numbers.CompactBound(difference.RatioRelativeBound)
            : text;
    }

    private static string RunName(string path) => Path.GetFileNameWithoutExtension(path);

    private static string JoinAnd(List<string> parts) =>
        parts.Count <= 1 ? string.Concat(parts) : string.Join(", ", parts.Take(parts.Count - 1)) + " and " + parts[^1];

    private static Figure? PerOp(Figure? total, long? operations) => operations is { } count && total is not null ? total.Per(count) : total;

    private static Figure? PerSecond(long? count, AsyncCostReport report) =>
        count is { } value && report.Duration > TimeSpan.Zero ? Figure.Exact(value, FigureSource.OperatingSystem).Per(report.Duration.TotalSeconds) : null;

    private static string Fraction(double value) => value.ToString(value >= 100 ? "N0" : "0.###", CultureInfo.InvariantCulture);
}
