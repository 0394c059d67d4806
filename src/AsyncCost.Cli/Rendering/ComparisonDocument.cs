using System.Globalization;
using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>Two measured runs side by side ('compare'): totals, per operation when the operation count is known, and rates.</summary>
internal static class ComparisonDocument
{
    public static TextDocument Create(string beforeName, AsyncCostReport before, string afterName, AsyncCostReport after, long? operations)
    {
        var table = new TextTable(operations is null ? "Before and after" : $"Before and after, per operation ({Numbers.Count(operations.Value)} operations each)",
            [new("Figure", ColumnAlignment.Left), new("Before"), new("After"), new("After/Before")])
        {
            Note = "Bytes come from the allocation pass (TPL events off); hops from the hop pass; context switches from /proc over the whole session.",
        };
        foreach (var (name, format, beforeValue, afterValue) in Rows(before, after, operations))
        {
            table.AddRow(name, Cell(beforeValue, format), Cell(afterValue, format), Ratio(beforeValue, afterValue));
        }

        return new TextDocument("AsyncCost comparison", [$"Before: {beforeName}", $"After: {afterName}"], [table]);
    }

    private static IEnumerable<(string Name, Func<double, string> Format, double? Before, double? After)> Rows(AsyncCostReport before, AsyncCostReport after, long? operations)
    {
        var perOp = operations is > 0 ? " per op" : "";
        yield return ("Allocated bytes" + perOp, Numbers.Bytes, PerOp(before.Totals.AllocatedBytes?.Value, operations), PerOp(after.Totals.AllocatedBytes?.Value, operations));
        yield return ("Async-method bytes" + perOp, Numbers.Bytes, PerOp(AsyncBytes(before), operations), PerOp(AsyncBytes(after), operations));
        yield return ("Thread-pool hops" + perOp, Fraction, PerOp(before.Totals.Hops?.Value, operations), PerOp(after.Totals.Hops?.Value, operations));
        yield return ("Work items completed" + perOp, Fraction, PerOp(before.Totals.CompletedWorkItems?.Value, operations), PerOp(after.Totals.CompletedWorkItems?.Value, operations));
        yield return ("Lock contentions" + perOp, Fraction, PerOp(before.Totals.LockContentions?.Value, operations), PerOp(after.Totals.LockContentions?.Value, operations));
        yield return ("Voluntary context switches/s", Numbers.Count, PerSecond(before.Totals.VoluntaryContextSwitches, before), PerSecond(after.Totals.VoluntaryContextSwitches, after));
        yield return ("Involuntary context switches/s", Numbers.Count, PerSecond(before.Totals.InvoluntaryContextSwitches, before), PerSecond(after.Totals.InvoluntaryContextSwitches, after));
        yield return ("Recorded seconds", Fraction, before.Duration.TotalSeconds, after.Duration.TotalSeconds);
    }

    private static double? AsyncBytes(AsyncCostReport report) =>
        report.Methods.Any(m => m.Bytes is not null) ? report.Methods.Sum(m => m.Bytes?.Value ?? 0) : null;

    private static double? PerOp(double? total, long? operations) => operations is > 0 && total is { } value ? value / operations.Value : total;

    private static double? PerSecond(long? count, AsyncCostReport report) =>
        count is { } value && report.Duration > TimeSpan.Zero ? value / report.Duration.TotalSeconds : null;

    private static string Fraction(double value) => value.ToString(value >= 100 ? "N0" : "0.###", CultureInfo.InvariantCulture);

    private static string Cell(double? value, Func<double, string> format) => value is null ? "-" : format(value.Value);

    private static string Ratio(double? before, double? after) =>
        before is > 0 && after is { } a ? (a / before.Value).ToString("0.00", CultureInfo.InvariantCulture) + "×" : "-";
}
