using System.Globalization;
using System.Text.Json.Nodes;
using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>One compared figure: its name, how it reads in text, and the two runs' values (raw, per operation when asked).</summary>
internal sealed record ComparedFigure(string Key, string Name, Func<double, string> Format, double? Before, double? After, bool PerOperation = false)
{
    public double? Ratio => Before is > 0 && After is { } after ? after / Before.Value : null;
}

/// <summary>Two measured runs side by side ('compare'): totals, per operation when the operation count is known, and rates.</summary>
internal sealed class Comparison
{
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
        ComparedFigure Total(string key, string name, Func<double, string> format, Func<AsyncCostReport, double?> value) =>
            new(key, name + perOp, format, PerOp(value(before), operations), PerOp(value(after), operations), operations is not null);
        ComparedFigure Rate(string key, string name, Func<AsyncCostReport, long?> count) =>
            new(key, name, Numbers.Count, PerSecond(count(before), before), PerSecond(count(after), after));
        return new Comparison(beforeName, afterName, operations,
        [
            Total("allocatedBytes", "Allocated bytes", Numbers.Bytes, r => r.Totals.AllocatedBytes?.Value),
            Total("asyncMethodBytes", "Async-method bytes", Numbers.Bytes, AsyncBytes),
            Total("hops", "Thread-pool hops", Fraction, r => r.Totals.Hops?.Value),
            Total("completedWorkItems", "Work items completed", Fraction, r => r.Totals.CompletedWorkItems?.Value),
            Total("lockContentions", "Lock contentions", Fraction, r => r.Totals.LockContentions?.Value),
            Rate("voluntaryContextSwitchesPerSecond", "Voluntary context switches/s", r => r.Totals.VoluntaryContextSwitches),
            Rate("involuntaryContextSwitchesPerSecond", "Involuntary context switches/s", r => r.Totals.InvoluntaryContextSwitches),
            new("recordedSeconds", "Recorded seconds", Fraction, before.Duration.TotalSeconds, after.Duration.TotalSeconds),
        ]);
    }

    /// <summary>The comparison for people: formatted cells (table, markdown).</summary>
    public TextDocument Document()
    {
        var table = new TextTable(Operations is null ? "Before and after" : $"Before and after, per operation ({Numbers.Count(Operations.Value)} operations each)",
            [new("Figure", ColumnAlignment.Left), new("Before"), new("After"), new("After/Before")])
        {
            Note = "Bytes come from the allocation pass (TPL events off); hops from the hop pass; context switches from /proc over the whole session.",
        };
        foreach (var figure in Figures)
        {
            table.AddRow(figure.Name, Cell(figure.Before, figure.Format), Cell(figure.After, figure.Format),
                figure.Ratio is { } ratio ? ratio.ToString("0.00", CultureInfo.InvariantCulture) + "×" : "-");
        }

        return new TextDocument("AsyncCost comparison", [$"Before: {BeforeName}", $"After: {AfterName}"], [table]);
    }

    /// <summary>The comparison for scripts and spreadsheets (csv): plain invariant numbers, empty for a missing figure.</summary>
    public TextTable Raw()
    {
        var table = new TextTable("comparison", [new("figure", ColumnAlignment.Left), new("perOperation"), new("before"), new("after"), new("ratio")]);
        foreach (var figure in Figures)
        {
            table.AddRow(figure.Key, figure.PerOperation ? "true" : "false",
                Numbers.Raw(figure.Before), Numbers.Raw(figure.After), Numbers.Raw(figure.Ratio));
        }

        return table;
    }

    /// <summary>The comparison as one JSON object (json): the runs, the operation count, and each figure's raw values.</summary>
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
                ["before"] = figure.Before,
                ["after"] = figure.After,
                ["ratio"] = figure.Ratio,
            });
        }

        return new JsonObject
        {
            ["before"] = BeforeName,
            ["after"] = AfterName,
            ["operations"] = Operations,
            ["figures"] = figures,
        }.ToJsonString(AsyncCostReportJson.Options);
    }

    private static double? AsyncBytes(AsyncCostReport report) =>
        report.Methods.Any(m => m.Bytes is not null) ? report.Methods.Sum(m => m.Bytes?.Value ?? 0) : null;

    private static double? PerOp(double? total, long? operations) => operations is { } count && total is { } value ? value / count : total;

    private static double? PerSecond(long? count, AsyncCostReport report) =>
        count is { } value && report.Duration > TimeSpan.Zero ? value / report.Duration.TotalSeconds : null;

    private static string Fraction(double value) => value.ToString(value >= 100 ? "N0" : "0.###", CultureInfo.InvariantCulture);

    private static string Cell(double? value, Func<double, string> format) => value is null ? "-" : format(value.Value);
}
