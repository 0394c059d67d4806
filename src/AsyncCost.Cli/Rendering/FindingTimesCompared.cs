using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using AsyncCost.Findings;
using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>
/// The first run's analyzer findings with their time in both runs ('compare' with --sarif, or a first report that holds
/// its ranked findings): one row per finding that had a time figure in the first run, in its rank.
/// </summary>
/// <param name="Before">The first run, on the comparison's basis (its method names label the rows).</param>
/// <param name="Changes">Each timed finding, before and after (<see cref="FindingTimeChanges"/>).</param>
/// <param name="FindingCount">All the findings given, timed or not.</param>
internal sealed record FindingTimesCompared(AsyncCostReport Before, IReadOnlyList<FindingTimeChange> Changes, int FindingCount)
{
    /// <summary>The findings' table for every text format.</summary>
    public TextTable Table(ComparisonBasis basis, string threshold)
    {
        var table = new TextTable(Title(basis, Noun),
        [
            new("#"), new("Rule", ColumnAlignment.Left), new("Where", ColumnAlignment.Left), new("Cost in", ColumnAlignment.Left, ColumnFit.Shorten),
            new("Before"), new("After"), new("Change", ColumnAlignment.Left),
        ])
        {
            Note = Note(basis, threshold),
        };
        foreach (var change in Changes)
        {
            var row = change.Before;
            table.AddRow(row.Rank.ToString(CultureInfo.InvariantCulture), row.Finding.RuleId, HotFindingsDocument.Location(row.Finding), CostIn(change),
                Numbers.Time(row.Time.Milliseconds), AfterText(change), ChangeText(change));
        }

        return table;
    }

    /// <summary>The findings with a predicted saving: the prediction, the saving measured on each finding's own path, and
    /// whether the two agree; null when no finding has one.</summary>
    public TextTable? SavingsTable(ComparisonBasis basis)
    {
        var checks = Changes.Where(c => c.Saving is not null).ToList();
        if (checks.Count == 0)
        {
            return null;
        }
        var table = new TextTable("The first run's predicted savings, measured " + (basis == ComparisonBasis.PerSecond ? "per second of recording" : "per " + Noun),
        [
            new("#"), new("Rule", ColumnAlignment.Left), new("Where", ColumnAlignment.Left), new("Predicted"), new("Measured"), new("In bound", ColumnAlignment.Left),
        ])
        {
            Note = "Predicted: the first run's saving (for an await in a loop, per execution of the loop its calls' elapsed time less "
                + "the longest, what running them together leaves if their latencies are independent, to the same less their mean, "
                + "if run together they finish together: a shared timer tick); each end has a 95 % bound (in the json). Measured: on "
                + "the finding's own path, what the loop's method waited on those callees (one after another and together) in the first run less in the second, so "
                + "another fix in the method is not credited to it; its bound the two runs' in quadrature. In bound: the two 95 % "
                + "intervals meet. The second run's timings move with the machine's load, as the first run's did.",
        };
        foreach (var change in checks)
        {
            var saving = change.Saving!;
            table.AddRow(change.Before.Rank.ToString(CultureInfo.InvariantCulture), change.Before.Finding.RuleId, HotFindingsDocument.Location(change.Before.Finding),
                saving.PredictedIfOverlapping is { } top ? Numbers.TimeRange(saving.Predicted.Value, top.Value) : Numbers.Time(saving.Predicted), saving.Measured is { } measured ? Numbers.Time(measured) : Numbers.NotObservable,
                saving.WithinPrediction switch { true => "yes", false => "no", null => "-" });
        }

        return table;
    }

    /// <summary>The findings for json: each with both figures, the change and why.</summary>
    public JsonArray Json() => [.. Changes.Select(change => (JsonNode)new JsonObject
    {
        ["rank"] = change.Before.Rank,
        ["ruleId"] = change.Before.Finding.RuleId,
        ["file"] = change.Before.Finding.FilePath,
        ["line"] = change.Before.Finding.Line,
        ["methodKey"] = change.Before.Finding.MethodKey,
        ["costIn"] = new JsonArray([.. HotFindingsDocument.CostKeys(change.Before).Select(k => (JsonNode)k)]),
        ["basis"] = Camel(change.Before.Time.Basis),
        ["per"] = Camel(change.Before.Time.Per),
        ["before"] = Comparison.FigureJson(change.Before.Time.Milliseconds, loadDependent: false),
        ["beforeLowerBound"] = change.Before.Time.LowerBound,
        ["after"] = Comparison.FigureJson(change.After.Milliseconds, loadDependent: false),
        ["ratio"] = change.Difference?.Ratio,
        ["ratioRelativeBound"] = change.Difference?.RatioRelativeBound,
        ["change"] = Camel(change.Change),
        ["reason"] = change.Reason,
        ["beforeExplanation"] = change.Before.Time.Explanation,
        ["afterExplanation"] = change.After.Explanation,
        ["savingPredicted"] = change.Saving is { } saving ? Comparison.FigureJson(saving.Predicted, loadDependent: false) : null,
        ["savingPredictedIfOverlapping"] = Comparison.FigureJson(change.Saving?.PredictedIfOverlapping, loadDependent: false),
        ["savingMeasured"] = Comparison.FigureJson(change.Saving?.Measured, loadDependent: false),
        ["savingWithinPrediction"] = change.Saving?.WithinPrediction,
        ["savingExplanation"] = change.Saving?.Explanation,
    })];

    /// <summary>What one operation of the first run is: "request" (an ASP.NET Core service's) or "operation".</summary>
    public string Noun => PassBasis.OperationNoun(Before);

    /// <summary>The table's title: whose findings, and what their times are per.</summary>
    public static string Title(ComparisonBasis basis, string noun = "operation") =>
        "The first run's findings, their time " + (basis == ComparisonBasis.PerSecond ? "per second of recording" : "per " + noun);

    /// <summary>The cost-in cell: the basis and the method the time is spent in ("elapsed: Shop.Stock.ReserveAsync").</summary>
    public string CostIn(FindingTimeChange change) =>
        $"{HotFindingsDocument.BasisName(change.Before.Time.Basis)}: {HotFindingsDocument.CostIn(change.Before, Before)}";

    /// <summary>The after cell: the figure, "none seen" when its pass saw no call of the methods, or "not observable".</summary>
    public static string AfterText(FindingTimeChange change) => change switch
    {
        { Change: TimeChange.NotObservable } => Numbers.NotObservable,
        { After.Milliseconds: { } after } => Numbers.Time(after),
        _ => "none seen",
    };

    /// <summary>The change cell: "gone", "reduced 0.31×", "unchanged", "increased 1.52×", "not observable".</summary>
    public static string ChangeText(FindingTimeChange change) => change.Change switch
    {
        TimeChange.Reduced or TimeChange.Increased when change.Difference?.Ratio is { } ratio =>
            $"{Name(change.Change)} {ratio.ToString("0.00", CultureInfo.InvariantCulture)}×",
        _ => Name(change.Change),
    };

    private static string Name(TimeChange change) => change == TimeChange.NotObservable ? Numbers.NotObservable : Camel(change);

    /// <summary>What the table's cells mean.</summary>
    public string Note(ComparisonBasis basis, string threshold)
    {
        var perSecond = basis == ComparisonBasis.PerSecond;
        var untimed = FindingCount - Changes.Count;
        return "Each finding of the first run's code (the second run's fixed code may have none) timed in both runs on its own "
            + "basis (blocked, elapsed, hops, calls: report.md), its cost-in methods looked up in the second run. Gone: what is "
            + $"left, at the top of its 95 % bound, is under {FindingTimeChanges.GoneFraction * 100:0} % of what the first run proved, or "
            + "the pass that timed it saw no call of those methods (none seen). Reduced, increased: beyond both bounds and "
            + $"{threshold}. Not observable: the second run has no figure on that basis. A loop's finding timed by its callees "
            + "(elapsed) has a second row, its loop's own method's elapsed time (loop elapsed): running the calls together leaves "
            + "their sum as it was and shortens that. A time moves with the machine's load, which "
            + "no bound measures: shown, never failed on."
            + (perSecond ? " Per second it is a rate (calls in flight, threads blocked): a fall is a fall per operation only "
                + "if the second run served at least as many operations per second (the same closed-loop load)." : "")
            + (untimed > 0 ? $" {untimed} finding(s) without a time figure in the first run are not shown." : "");
    }

    private static string Camel<T>(T value) where T : struct, Enum => JsonNamingPolicy.CamelCase.ConvertName(value.ToString());
}
