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
    // The costs the closing sentence speaks of, with the verb and noun that say what changed.
    private static readonly (string Key, string Verb, string Noun)[] SummaryFigures =
    [
        ("allocatedBytes", "allocates", "bytes"),
        ("asyncMethodBytes", "allocates", "bytes in async methods"),
        ("hops", "makes", "thread-pool hops"),
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
        ComparedFigure Rate(string key, string name, Func<AsyncCostReport, long?> count) =>
            new(key, name, Numbers.Count, PerSecond(count(before), before), PerSecond(count(after), after));
        return new Comparison(beforeName, afterName, operations,
        [
            Total("allocatedBytes", "Allocated bytes", Numbers.Bytes, r => r.Totals.AllocatedBytes),
            Total("asyncMethodBytes", "Async-method bytes", Numbers.Bytes, r => Figure.Sum(r.Methods.Select(m => m.Bytes))),
            Total("hops", "Thread-pool hops", Fraction, r => r.Totals.Hops),
            Total("completedWorkItems", "Work items completed", Fraction, r => r.Totals.CompletedWorkItems),
            Total("lockContentions", "Lock contentions", Fraction, r => r.Totals.LockContentions),
            Rate("voluntaryContextSwitchesPerSecond", "Voluntary context switches/s", r => r.Totals.VoluntaryContextSwitches),
            Rate("involuntaryContextSwitchesPerSecond", "Involuntary context switches/s", r => r.Totals.InvoluntaryContextSwitches),
            new("recordedSeconds", "Recorded seconds", Fraction, Figure.Exact(before.Duration.TotalSeconds, FigureSource.OperatingSystem),
                Figure.Exact(after.Duration.TotalSeconds, FigureSource.OperatingSystem)),
        ]);
    }

    /// <summary>
    /// What changed, in one sentence: each cost (bytes, async-method bytes, hops) whose difference is outside its bound, as
    /// "N× fewer" or "N× more"; the costs whose difference is inside the noise are named as such, never as a change.
    /// </summary>
    public string Summary()
    {
        string before = RunName(BeforeName), after = RunName(AfterName);
        var per = Operations is null ? "" : " per operation";
        var changed = new List<string>();
        var noise = new List<string>();
        foreach (var (key, verb, noun) in SummaryFigures)
        {
            var figure = Figures.Single(f => f.Key == key);
            if (figure.Difference is not { Ratio: { } ratio } difference)
            {
                continue;
            }
            if (figure.WithinNoise || ratio == 1)
            {
                noise.Add(noun);
            }
            else
            {
                changed.Add($"{verb} {Factor(ratio)} {noun}{per}" + (difference.Estimated ? $" ({Numbers.CompactBound(difference.RatioRelativeBound)})" : ""));
            }
        }

        var sentence = changed.Count == 0
            ? $"{after} and {before} show no difference outside the noise"
            : $"{after} {JoinAnd(changed)} than {before}; every difference named is outside its bound";
        if (changed.Count > 0 && noise.Count > 0)
        {
            sentence += $"; {JoinAnd(noise)} differ only within the noise";
        }
        else if (changed.Count == 0 && noise.Count > 0)
        {
            sentence += $" in {JoinAnd(noise)}";
        }

        return sentence + ".";

        static string Factor(double ratio) => ratio < 1
            ? (1 / ratio).ToString("0.0", CultureInfo.InvariantCulture) + "× fewer"
            : ratio.ToString("0.0", CultureInfo.InvariantCulture) + "× more";
    }

    /// <summary>The comparison for people: formatted cells (table, markdown), the summary sentence last.</summary>
    public TextDocument Document()
    {
        var table = new TextTable(Operations is null ? "Before and after" : $"Before and after, per operation ({Numbers.Count(Operations.Value)} operations each)",
            [new("Figure", ColumnAlignment.Left), new("Before"), new("After"), new("After/Before")])
        {
            Note = "~ marks an estimate with its error bound (95 %); ≈ marks a difference within the noise (the two bounds overlap), "
                + "which is no evidence of a change. Bytes come from the allocation pass (TPL events off); hops from the hop pass; "
                + "context switches from /proc over the whole session.",
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
    private static string RatioCell(ComparedFigure figure)
    {
        if (figure.Difference is not { Ratio: { } ratio } difference)
        {
            return "-";
        }
        var text = ratio.ToString("0.00", CultureInfo.InvariantCulture) + "×";
        return figure.WithinNoise ? "≈ " + text + " (noise)"
            : difference.Estimated ? text + " " + Numbers.CompactBound(difference.RatioRelativeBound)
            : text;
    }

    private static string RunName(string path) => Path.GetFileNameWithoutExtension(path);

    private static string JoinAnd(List<string> parts) =>
        parts.Count == 1 ? parts[0] : string.Join(", ", parts.Take(parts.Count - 1)) + " and " + parts[^1];

    private static Figure? PerOp(Figure? total, long? operations) => operations is { } count && total is not null ? total.Per(count) : total;

    private static Figure? PerSecond(long? count, AsyncCostReport report) =>
        count is { } value && report.Duration > TimeSpan.Zero ? Figure.Exact(value, FigureSource.OperatingSystem).Per(report.Duration.TotalSeconds) : null;

    private static string Fraction(double value) => value.ToString(value >= 100 ? "N0" : "0.###", CultureInfo.InvariantCulture);
}
