using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>One compared figure: its name, how it reads in text, and the two runs' figures on the comparison's basis.</summary>
/// <param name="LoadDependent">A count that moves with the machine's load (context switches: other processes take the cores),
/// whatever the code does: shown, never judged, and no bound of its own says how far it may move.</param>
internal sealed record ComparedFigure(string Key, string Name, Func<double, string> Format, Figure? Before, Figure? After, bool PerOperation = false, bool LoadDependent = false)
{
    /// <summary>The two runs' difference, when both have the figure.</summary>
    public FigureDifference? Difference => Before is not null && After is not null ? new FigureDifference(Before, After) : null;

    /// <summary>True when the difference is inside the noise of an estimate (the bounds overlap): no change can be claimed.</summary>
    public bool WithinNoise => Difference is { Estimated: true, WithinNoise: true };
}

/// <summary>What the compared figures count.</summary>
internal enum ComparisonBasis
{
    /// <summary>Per operation: each run's totals over the operation count given (--operations).</summary>
    PerOperation,

    /// <summary>Per run: both reports are launched commands whose every pass ran the command whole (<see cref="RowBasis.Run"/>).</summary>
    PerRun,

    /// <summary>Per second of recording: each figure over the time of the pass it came from. No verdict: a rate moves with throughput.</summary>
    PerSecond,
}

/// <summary>Two measured runs side by side ('compare'): totals, per operation when the operation count is known, and rates.</summary>
internal sealed class Comparison
{
    // The costs the closing sentence speaks of, with the verb and noun that say what changed. Not the whole process's
    // allocated bytes: that counter includes startup and the runtime's own work, which a per-operation figure would charge
    // to the operations. Not context switches: they move with the machine's load (4.8× and 6.5× in two runs of one pair).
    private static readonly (string Key, string Verb, string Noun)[] SummaryFigures =
    [
        ("asyncMethodBytes", "allocates", "bytes in async methods"),
        ("hops", "makes", "thread-pool hops"),
    ];

    private Comparison(string beforeName, string afterName, long? operations, ComparisonBasis basis, IReadOnlyList<ComparedFigure> figures)
    {
        BeforeName = beforeName;
        AfterName = afterName;
        Operations = operations;
        Basis = basis;
        Figures = figures;
    }

    public string BeforeName { get; }
    public string AfterName { get; }
    public long? Operations { get; }
    public ComparisonBasis Basis { get; }
    public IReadOnlyList<ComparedFigure> Figures { get; }

    /// <summary>The two runs on one basis: per operation when the operation count is known; per run when both are launched
    /// commands every pass ran whole (the same work, assumed, in both); else per second of each figure's own pass, with no
    /// verdict, since a fix that runs faster does more of everything per second.</summary>
    /// <param name="operations">How many operations each run did (positive), or null.</param>
    public static Comparison Create(string beforeName, AsyncCostReport before, string afterName, AsyncCostReport after, long? operations)
    {
        ArgumentNullException.ThrowIfNull(before);
        ArgumentNullException.ThrowIfNull(after);
        var basis = operations is not null ? ComparisonBasis.PerOperation
            : before.RowBasis == RowBasis.Run && after.RowBasis == RowBasis.Run ? ComparisonBasis.PerRun
            : ComparisonBasis.PerSecond;
        var suffix = basis switch { ComparisonBasis.PerOperation => " per op", ComparisonBasis.PerRun => " per run", _ => "/s" };
        Figure? OnBasis(Figure? figure, AsyncCostReport report) => figure is null ? null : basis switch
        {
            ComparisonBasis.PerOperation => figure.Per(operations!.Value),
            ComparisonBasis.PerRun => figure,
            _ => Seconds(report, figure.Source) is > 0 and var seconds ? figure.Per(seconds) : null,
        };
        ComparedFigure Compared(string key, string name, Func<double, string> format, Func<AsyncCostReport, Figure?> figure, bool loadDependent = false) =>
            new(key, name + suffix, format, OnBasis(figure(before), before), OnBasis(figure(after), after), basis == ComparisonBasis.PerOperation, loadDependent);
        ComparedFigure Switches(string key, string name, Func<AsyncCostReport, long?> count) =>
            Compared(key, name, Fraction, r => count(r) is { } value ? Figure.Exact(value, FigureSource.OperatingSystem) : null, loadDependent: true);
        return new Comparison(beforeName, afterName, operations, basis,
        [
            Compared("allocatedBytes", "Allocated bytes", Numbers.Bytes, r => r.Totals.AllocatedBytes),
            Compared("asyncMethodBytes", "Async-method bytes", Numbers.Bytes, ReportFigures.AsyncMethodBytes),
            Compared("hops", "Thread-pool hops", Fraction, r => r.Totals.Hops),
            Compared("completedWorkItems", "Work items completed", Fraction, r => r.Totals.CompletedWorkItems),
            Compared("lockContentions", "Lock contentions", Fraction, r => r.Totals.LockContentions),
            Switches("voluntaryContextSwitches", "Voluntary context switches", r => r.Totals.VoluntaryContextSwitches),
            Switches("involuntaryContextSwitches", "Involuntary context switches", r => r.Totals.InvoluntaryContextSwitches),
            new("recordedSeconds", "Recorded seconds", Fraction, Figure.Exact(before.Duration.TotalSeconds, FigureSource.OperatingSystem),
                Figure.Exact(after.Duration.TotalSeconds, FigureSource.OperatingSystem)),
        ]);
    }

    /// <summary>The seconds a figure of the report was counted over: its pass's (a windowed hop pass's with the time between
    /// its windows, which its counts are scaled to), or the whole session's for /proc figures.</summary>
    private static double Seconds(AsyncCostReport report, FigureSource source)
    {
        var pass = source switch
        {
            FigureSource.AllocationPass => MeasurementPasses.Allocations,
            FigureSource.HopPass => MeasurementPasses.Hops,
            FigureSource.CpuPass => MeasurementPasses.Cpu,
            _ => MeasurementPasses.None,
        };
        return report.Passes.FirstOrDefault(p => p.Pass == pass) is { } summary
            ? (summary.Duration + (summary.Unrecorded ?? TimeSpan.Zero)).TotalSeconds
            : report.Duration.TotalSeconds;
    }

    /// <summary>
    /// What changed, in one sentence: each cost (async-method bytes, hops) that changed beyond doubt
    /// (<see cref="FigureDifference.IsChange"/>), as "N× fewer" or "N× more"; the others are named as unchanged within the
    /// noise, never as a change. Voluntary context switches that differ by the run-to-run tolerance are named as a count that
    /// load moves, not as a change beyond a bound. Per second of recording, no verdict at all.
    /// </summary>
    public string Summary()
    {
        string before = RunName(BeforeName), after = RunName(AfterName);
        if (Basis == ComparisonBasis.PerSecond)
        {
            return $"No verdict on cost: {before} and {after} recorded for a time, not a known number of operations (attached, or cut by --duration), "
                + "so their figures are shown per second of recording, and a rate moves with throughput as much as with each operation's cost "
                + "(a fix that serves 3× the requests makes up to 3× of everything per second). Give --operations N, the operations each run did, to judge the cost per operation.";
        }

        var per = Basis == ComparisonBasis.PerOperation ? " per operation" : " per run";
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
                // "allocates 2.0× fewer bytes and makes 1.2× fewer hops": a verb is said once for the figures that follow it.
                changed.Add((verb == lastVerb ? "" : verb + " ") + $"{Factor(ratio, difference)} {noun}{per}"
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
        // Voluntary switches (threads blocking) are what a sync-over-async fix changes, but no bound says how far load moves them.
        var switches = Figures.FirstOrDefault(f => f.Key == "voluntaryContextSwitches")?.Difference;
        var switchChange = switches is { Ratio: { } switchRatio } && Math.Abs(switchRatio - 1) >= FigureDifference.RunToRunTolerance
            ? $"{Factor(switchRatio, switches)} voluntary context switches (threads blocking){per}"
            : null;
        const string LoadDependent = "a count that moves with the machine's load, not a cost with a bound (rerun both to confirm)";
        var sentence = changed.Count > 0
            ? $"{after} {JoinAnd(changed)} than {before}; every difference named is outside its bound"
                + (switchChange is null ? "" : $"; it also makes {switchChange}, {LoadDependent}")
                + (unchanged.Count > 0 ? "; " + noChange : "")
            : switchChange is not null ? $"{after} makes {switchChange} than {before}, {LoadDependent}" + (unchanged.Count > 0 ? "; " + noChange : "")
            : unchanged.Count > 0 ? $"{after} and {before} show {noChange}" : $"{after} and {before} have no costs to compare";
        if (incomparable.Count > 0)
        {
            sentence += $"; {JoinAnd(incomparable)} come from different passes and are not compared";
        }

        if (switches is not null && switchChange is null)
        {
            sentence += $"; context switches, a count that moves with the machine's load, differ by less than {tolerance}";
        }

        return sentence + ".";

        // An after of zero: an exact one is all gone; an estimate of zero is below its bound, so the factor is at least before / bound.
        static string Factor(double ratio, FigureDifference difference) => ratio switch
        {
            0 when difference.After.ErrorBound == 0 => "100 % fewer",
            0 => "≥" + Times(difference.Before.Value / difference.After.ErrorBound) + " fewer",
            < 1 => Times(1 / ratio) + " fewer",
            _ => Times(ratio) + " more",
        };

        static string Times(double factor) => factor.ToString(factor >= 100 ? "N0" : "0.0", CultureInfo.InvariantCulture) + "×";
    }

    /// <summary>What the figures count, as a heading: "Before and after, per operation (400 operations each)".</summary>
    public string Title => Basis switch
    {
        ComparisonBasis.PerOperation => $"Before and after, per operation ({Numbers.Count(Operations!.Value)} operations each)",
        ComparisonBasis.PerRun => "Before and after, per run of the launched command",
        _ => "Before and after, per second of recording",
    };

    /// <summary>The comparison for people: formatted cells (table, markdown), the summary sentence last.</summary>
    public TextDocument Document()
    {
        var table = new TextTable(Title, [new("Figure", ColumnAlignment.Left), new("Before"), new("After"), new("After/Before")])
        {
            Note = "~ marks an estimate with its error bound (95 %); ≈ marks a difference within the noise (the two bounds overlap), "
                + "which is no evidence of a change. Allocated bytes are the whole process's (startup included); async-method bytes come "
                + "from the allocation pass (TPL events off); hops from the hop pass; context switches from /proc over the whole session, "
                + "a count that moves with the machine's load (marked load)."
                + (Basis == ComparisonBasis.PerSecond ? " Per second: each figure over its own pass's recording time." : ""),
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
                ["before"] = FigureJson(figure.Before, figure.LoadDependent),
                ["after"] = FigureJson(figure.After, figure.LoadDependent),
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
            ["basis"] = JsonNamingPolicy.CamelCase.ConvertName(Basis.ToString()),
            ["figures"] = figures,
            ["summary"] = Summary(),
        }.ToJsonString(AsyncCostReportJson.Options);
    }

    /// <summary>A figure: its value, kind ("exact", "estimate", or "loadDependent" for a count the machine's load moves) and bound.</summary>
    private static JsonObject? FigureJson(Figure? figure, bool loadDependent) => figure is null ? null : new JsonObject
    {
        ["value"] = figure.Value,
        ["kind"] = loadDependent ? "loadDependent" : ReportDocument.KindName(figure.Kind),
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
        if (figure.LoadDependent)
        {
            return text.Length == 0 ? "-" : text + " (load)";
        }

        return figure.WithinNoise ? (text.Length == 0 ? "≈ (noise)" : $"≈ {text} (noise)")
            : text.Length == 0 ? "-"
            : difference.Estimated ? text + " " + Numbers.CompactBound(difference.RatioRelativeBound)
            : text;
    }

    private static string RunName(string path) => Path.GetFileNameWithoutExtension(path);

    private static string JoinAnd(List<string> parts) =>
        parts.Count <= 1 ? string.Concat(parts) : string.Join(", ", parts.Take(parts.Count - 1)) + " and " + parts[^1];

    private static string Fraction(double value) => value.ToString(value >= 100 ? "N0" : "0.###", CultureInfo.InvariantCulture);
}
