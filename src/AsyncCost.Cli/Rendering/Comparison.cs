using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using AsyncCost.Attribution;
using AsyncCost.Findings;
using AsyncCost.Report;

namespace AsyncCost.Cli.Rendering;

/// <summary>What a compared figure is for the verdict.</summary>
internal enum FigureRole
{
    /// <summary>Shown beside the others and never judged (the whole process's bytes include its start-up).</summary>
    Shown,

    /// <summary>A cost or throughput the verdict names and the gate fails on, when it changed beyond its bound and the threshold.</summary>
    Judged,

    /// <summary>A count that moves with the machine's load (context switches): shown, named as such, never judged.</summary>
    LoadDependent,
}

/// <summary>What the comparison concludes about one figure: the verdict sentence, the page's badges and the gate all read it.</summary>
internal enum Judgement
{
    /// <summary>One run lacks the figure.</summary>
    None,

    /// <summary>Better beyond its bound and the threshold.</summary>
    Improved,

    /// <summary>Worse beyond its bound and the threshold: a regression.</summary>
    Regressed,

    /// <summary>Within the noise or the threshold.</summary>
    Unchanged,

    /// <summary>A count the machine's load moves: not judged.</summary>
    LoadDependent,

    /// <summary>The two figures come from different passes.</summary>
    NotCompared,

    /// <summary>Shown only (not a judged figure, or the comparison has no verdict: per second).</summary>
    NotJudged,
}

/// <summary>One compared figure: its name, how it reads in text, and the two runs' figures on the comparison's basis.</summary>
/// <param name="HigherIsBetter">Throughput: more is better; every cost: less is.</param>
internal sealed record ComparedFigure(string Key, string Name, Func<double, string> Format, Figure? Before, Figure? After, bool PerOperation = false,
    FigureRole Role = FigureRole.Shown, bool HigherIsBetter = false)
{
    /// <summary>Why a budget's limit has no measured figure beside it (no such method in the run), when another reason than
    /// the pass that measures it not having run.</summary>
    public string? Unmeasured { get; init; }

    /// <summary>The two runs' difference, when both have the figure.</summary>
    public FigureDifference? Difference => Before is not null && After is not null ? new FigureDifference(Before, After) : null;

    /// <summary>True when the difference is inside the noise of an estimate (the bounds overlap): no change can be claimed.</summary>
    public bool WithinNoise => Difference is { Estimated: true, WithinNoise: true };

    /// <summary>A count that moves with the machine's load (context switches): shown, never judged.</summary>
    public bool LoadDependent => Role == FigureRole.LoadDependent;
}

/// <summary>What the compared figures count.</summary>
internal enum ComparisonBasis
{
    /// <summary>Per operation: each figure over the operations of the pass it came from (the count each report holds per pass,
    /// printed by the command or given to collect; the count given to compare, --operations, only for a pass that knows none).</summary>
    PerOperation,

    /// <summary>Per second of recording: each figure over the time of the pass it came from. No verdict: a rate moves with throughput.</summary>
    PerSecond,
}

/// <summary>Two measured runs side by side ('compare'): per operation when the operations are known, else per second of recording.</summary>
internal sealed class Comparison
{
    // The figures the closing sentence speaks of, in this order, with the verb and noun that say what changed: throughput
    // first, then the costs per operation. Not the whole process's allocated bytes: that counter includes startup and the
    // runtime's own work, which a per-operation figure would charge to the operations. Not context switches: they move with
    // the machine's load (4.8× and 6.5× in two runs of one pair).
    private static readonly (string Key, string Verb, string Noun, bool PerOperation, string Unchanged)[] SummaryFigures =
    [
        ("throughput", "runs", "operations per second", false, "throughput"),
        ("asyncMethodBytes", "allocates", "bytes in async methods", true, "bytes in async methods"),
        ("hops", "makes", "thread-pool hops", true, "thread-pool hops"),
    ];

    private Comparison(string beforeName, string afterName, long? operations, ComparisonBasis basis, double threshold, IReadOnlyList<ComparedFigure> figures,
        (string Before, string After) headings, FindingTimesCompared? findingTimes = null)
    {
        FindingTimes = findingTimes;
        Headings = headings;
        BeforeName = beforeName;
        AfterName = afterName;
        Operations = operations;
        Basis = basis;
        Threshold = threshold;
        Figures = figures;
    }

    public string BeforeName { get; }
    public string AfterName { get; }

    /// <summary>The operation count given to compare (--operations), or null when each report's own counts are used.</summary>
    public long? Operations { get; }

    public ComparisonBasis Basis { get; }

    /// <summary>What one operation is in both runs: "request" when every pass of both counted requests (attached ASP.NET Core
    /// services), else "operation".</summary>
    public string Noun { get; private init; } = "operation";

    /// <summary>The smallest relative change named or failed on (0.10: 10 %), beyond the figures' own bounds; for throughput, a
    /// fall to 1/(1 + threshold) of it (each operation taking that much longer).</summary>
    public double Threshold { get; }

    public IReadOnlyList<ComparedFigure> Figures { get; }

    /// <summary>The first run's analyzer findings with their time in both runs, when compare was given them; null otherwise.</summary>
    public FindingTimesCompared? FindingTimes { get; }

    /// <summary>True when the two reports are one and the same (a file compared with itself, or with a copy of it).</summary>
    public bool SameReport { get; private init; }

    /// <summary>What the two columns are: ("Before", "After"), or ("Budget", "Measured") against a budget file.</summary>
    public (string Before, string After) Headings { get; }

    /// <summary>Each run's distinct operation counts by pass: one when its passes did the same work, each pass's otherwise.</summary>
    private (IReadOnlyList<PassSummary> Before, IReadOnlyList<PassSummary> After) PassOperations { get; init; } = ([], []);

    /// <summary>The judged figures that got worse beyond their bounds and the threshold (what --fail-on-regression fails on).</summary>
    public IReadOnlyList<ComparedFigure> Regressions => [.. Figures.Where(f => Judge(f) == Judgement.Regressed)];

    /// <summary>
    /// The two runs on one basis: per operation when every pass of both reports knows its operations (its own, or the count
    /// given to compare for a pass that knows none): each figure is then divided by the operations of the pass it came from
    /// (<see cref="PassBasis"/>), so runs of different length, and passes of one run that did different work, compare like
    /// for like; else per second of each figure's own pass, with no verdict, since a fix that runs faster does more of
    /// everything per second.
    /// </summary>
    /// <param name="operations">How many operations each run did (positive), for the passes that know none; null to use the
    /// reports' own counts alone.</param>
    /// <exception cref="OperationsContradictedException">A pass knows a count other than <paramref name="operations"/>.</exception>
    /// <param name="threshold">The smallest relative change judged (see <see cref="Threshold"/>).</param>
    /// <param name="findings">The analyzer findings of the first run's code, whose time is shown in both runs; null for none.</param>
    public static Comparison Create(string beforeName, AsyncCostReport before, string afterName, AsyncCostReport after, long? operations,
        double threshold = FigureDifference.RunToRunTolerance, IReadOnlyList<AnalyzerFinding>? findings = null)
    {
        ArgumentNullException.ThrowIfNull(before);
        ArgumentNullException.ThrowIfNull(after);
        var sameReport = AsyncCostReportJson.Serialize(before) == AsyncCostReportJson.Serialize(after);
        before = PassBasis.WithGivenOperations(before, operations, Path.GetFileName(beforeName));
        after = PassBasis.WithGivenOperations(after, operations, Path.GetFileName(afterName));
        var basis = PassBasis.KnowsOperations(before) && PassBasis.KnowsOperations(after) ? ComparisonBasis.PerOperation : ComparisonBasis.PerSecond;
        var perOperation = basis == ComparisonBasis.PerOperation;
        var requests = perOperation && PassBasis.OperationsAreRequests(before) && PassBasis.OperationsAreRequests(after);
        var suffix = !perOperation ? "/s" : requests ? " per request" : " per op";
        Figure? OnBasis(Figure? figure, AsyncCostReport report) => perOperation ? PassBasis.PerOperation(figure, report) : PassBasis.PerSecond(figure, report);
        ComparedFigure Compared(string key, string name, Func<double, string> format, Func<AsyncCostReport, Figure?> figure, FigureRole role = FigureRole.Shown) =>
            new(key, name + suffix, format, OnBasis(figure(before), before), OnBasis(figure(after), after), perOperation, role);
        ComparedFigure Switches(string key, string name, Func<AsyncCostReport, long?> count) =>
            Compared(key, name, Fraction, r => count(r) is { } value ? Figure.Exact(value, FigureSource.OperatingSystem) : null, FigureRole.LoadDependent);
        List<ComparedFigure> figures = [];
        if (perOperation)
        {
            var (beforeRate, afterRate) = Throughput(before, after);
            figures.Add(new("throughput", requests ? "Throughput (req/s)" : "Throughput (ops/s)", Rate, beforeRate, afterRate, Role: FigureRole.Judged, HigherIsBetter: true));
        }

        figures.AddRange(
        [
            Compared("allocatedBytes", "Allocated bytes", Numbers.Bytes, r => r.Totals.AllocatedBytes),
            Compared("asyncMethodBytes", "Async-method bytes", Numbers.Bytes, ReportFigures.AsyncMethodBytes, FigureRole.Judged),
            Compared("hops", "Thread-pool hops", Fraction, r => r.Totals.Hops, FigureRole.Judged),
            Compared("completedWorkItems", "Work items completed", Fraction, r => r.Totals.CompletedWorkItems),
            Compared("lockContentions", "Lock contentions", Fraction, r => r.Totals.LockContentions),
            Switches("voluntaryContextSwitches", "Voluntary context switches", r => r.Totals.VoluntaryContextSwitches),
            Switches("involuntaryContextSwitches", "Involuntary context switches", r => r.Totals.InvoluntaryContextSwitches),
        ]);
        if (perOperation)
        {
            // The timing pass's operations, the throughput's (each figure above is over its own pass's; the title names them all).
            figures.Add(new("operations", requests ? "Requests" : "Operations", Fraction, Count(TimingPass(before)?.Operations), Count(TimingPass(after)?.Operations)));
        }

        figures.Add(new("recordedSeconds", "Recorded seconds", Fraction, Figure.Exact(before.Duration.TotalSeconds, FigureSource.OperatingSystem),
            Figure.Exact(after.Duration.TotalSeconds, FigureSource.OperatingSystem)));
        // A finding's time is per operation when every pass of its report knows its operations, else per second: each report
        // is given the comparison's basis, so both times are on it.
        AsyncCostReport OnComparisonBasis(AsyncCostReport report) =>
            perOperation ? report : report with { Passes = [.. report.Passes.Select(p => p with { Operations = null })] };
        FindingTimesCompared? findingTimes = null;
        if (findings is not null)
        {
            var beforeOnBasis = OnComparisonBasis(before);
            findingTimes = new(beforeOnBasis, FindingTimeChanges.Between(findings, beforeOnBasis, OnComparisonBasis(after), threshold), findings.Count);
        }
        return new Comparison(beforeName, afterName, operations, basis, threshold, figures, ("Before", "After"), findingTimes)
        {
            PassOperations = (DistinctOperations(before), DistinctOperations(after)),
            SameReport = sameReport,
            Noun = requests ? "request" : "operation",
        };

        static Figure? Count(long? count) => count is { } value ? Figure.Exact(value, FigureSource.OperatingSystem) : null;
    }

    /// <summary>
    /// A run held to a budget file: each figure the budget limits, the limit on the left (exact, from the run's own pass, so
    /// the two compare) and the run's figure per operation on the right, judged as a comparison is: over the limit beyond the
    /// run's bound and the threshold is a regression. A run whose operations are unknown is shown per second, judging nothing.
    /// </summary>
    public static Comparison AgainstBudget(string budgetName, BudgetFile budget, string runName, AsyncCostReport run, long? operations, double threshold)
    {
        ArgumentNullException.ThrowIfNull(budget);
        run = PassBasis.WithGivenOperations(run, operations, Path.GetFileName(runName));
        var measured = Create(runName, run, runName, run, operations: null, threshold);
        if (measured.Basis == ComparisonBasis.PerSecond)
        {
            return new Comparison(budgetName, runName, operations, measured.Basis, threshold, [], ("Budget", "Measured"));
        }

        // A limit whose figure the run lacks (its pass did not run) keeps its row, with nothing measured: the gate says so.
        List<ComparedFigure> figures = [.. measured.Figures
            .Where(f => budget.LimitOf(f.Key) is not null)
            .Select(f => f with { Before = Limit(budget.LimitOf(f.Key)!.Value, f.After) })];
        foreach (var (key, limits) in budget.Methods ?? new Dictionary<string, MethodLimits>())
        {
            figures.AddRange(MethodFigures(key, limits, runName, run));
        }
        return new Comparison(budgetName, runName, operations, measured.Basis, threshold, figures, ("Budget", "Measured"))
        {
            PassOperations = ([], measured.PassOperations.After),
        };
    }

    /// <summary>
    /// One method's limits beside its figures per operation of their own passes: its row's, or, for a method that ran without
    /// a row (its calls completed synchronously without allocating), nothing its passes could see: 0 hops and waits exactly, 0
    /// bytes within the bound of a sample never drawn. A key that is neither a row nor among the methods the run's method
    /// events name is no method of the run: its figures are missing, and why (with the nearest names) goes with them.
    /// </summary>
    private static IEnumerable<ComparedFigure> MethodFigures(string key, MethodLimits limits, string runName, AsyncCostReport run)
    {
        var rows = run.Methods.Where(m => m.MethodKey == key).ToList();
        var row = rows.Count > 1 ? MethodCost.Combine(rows, key, rows[0].DisplayName) : rows.FirstOrDefault();
        var ran = row is not null || run.MethodsThatRan.Contains(key, StringComparer.Ordinal);
        var hopPassRan = run.Passes.Any(p => p.Pass == MeasurementPasses.Hops);
        Figure? NothingSeen(Figure? figure, FigureSource source) =>
            figure ?? (source == FigureSource.HopPass ? (hopPassRan ? Figure.Exact(0, FigureSource.HopPass) : null) : ReportFigures.UnsampledBytes(run));
        var unmeasured = ran ? null
            : $"no such method in {RunName(runName)}: no row and no method its trace names has the key {key}"
                + (NearestNames.Of(key, run.Methods.Select(m => m.MethodKey).Concat(run.MethodsThatRan)) is { Count: > 0 } nearest ? $" (nearest: {string.Join(", ", nearest)})" : "");
        (string Key, string Name, Func<double, string> Format, double? Limit, Figure? Measured)[] figures =
        [
            ("bytes", "bytes per op", Numbers.Bytes, limits.BytesPerOperation, NothingSeen(row?.Bytes, FigureSource.AllocationPass)),
            ("hops", "hops per op", Fraction, limits.HopsPerOperation, NothingSeen(row?.Hops, FigureSource.HopPass)),
            ("blockingWaits", "blocking waits per op", Fraction, limits.BlockingWaitsPerOperation, NothingSeen(row?.BlockingWaits, FigureSource.HopPass)),
        ];
        foreach (var (figureKey, name, format, limit, measured) in figures)
        {
            if (limit is { } value)
            {
                var perOperation = ran ? PassBasis.PerOperation(measured, run) : null;
                yield return new ComparedFigure($"method:{key}:{figureKey}", $"{key} {name}", format, Limit(value, perOperation), perOperation, PerOperation: true, FigureRole.Judged)
                {
                    Unmeasured = unmeasured,
                };
            }
        }
    }

    /// <summary>A budget's limit as a figure beside the run's: exact, from the run's own pass, so the two compare.</summary>
    private static Figure Limit(double limit, Figure? measured) =>
        measured is null ? Figure.Exact(limit, FigureSource.OperatingSystem) : measured with { Value = limit, ErrorBound = 0, Sampled = false, Samples = 0 };

    /// <summary>Against a budget: the limits whose figure the run lacks (the pass that measures it did not run), which the
    /// gate cannot hold it to; empty for two runs.</summary>
    public IReadOnlyList<ComparedFigure> UnheldLimits => Headings.Before == "Budget" ? [.. Figures.Where(f => f.After is null)] : [];

    /// <summary>The pass whose run a throughput is timed on: the allocation pass's (TPL events off, so the app runs as it
    /// does untraced), else the first.</summary>
    private static PassSummary? TimingPass(AsyncCostReport report) =>
        report.Passes.FirstOrDefault(p => p.Pass == MeasurementPasses.Allocations) ?? (report.Passes.Count > 0 ? report.Passes[0] : null);

    /// <summary>
    /// Operations per second of each run's timing pass: over the seconds the command measured them itself when both runs said
    /// ("asynccost: N operations in S s", start-up excluded), else over each pass's recording (start-up included in both).
    /// Exact for the run it timed; no bound says how far a rerun moves it, so only a change beyond the threshold is judged.
    /// </summary>
    private static (Figure? Before, Figure? After) Throughput(AsyncCostReport before, AsyncCostReport after)
    {
        if (TimingPass(before) is not { } beforePass || TimingPass(after) is not { } afterPass)
        {
            return (null, null);
        }

        var ownClock = beforePass.OperationSeconds is not null && afterPass.OperationSeconds is not null;
        Figure? Rate(PassSummary pass) => pass.Operations is { } count
            && (ownClock ? pass.OperationSeconds!.Value : pass.Duration.TotalSeconds) is > 0 and var seconds
            ? Figure.Exact(count / seconds, SourceOf(pass.Pass)) : null;
        return (Rate(beforePass), Rate(afterPass));
    }

    private static FigureSource SourceOf(MeasurementPasses pass) => pass switch
    {
        MeasurementPasses.Hops => FigureSource.HopPass,
        MeasurementPasses.Cpu => FigureSource.CpuPass,
        _ => FigureSource.AllocationPass,
    };

    /// <summary>What the comparison concludes about a figure (see <see cref="Judgement"/>).</summary>
    public Judgement Judge(ComparedFigure figure)
    {
        ArgumentNullException.ThrowIfNull(figure);
        return figure.Difference switch
        {
            null => Judgement.None,
            _ when figure.Role == FigureRole.LoadDependent => Judgement.LoadDependent,
            { Comparable: false } => Judgement.NotCompared,
            _ when figure.Role == FigureRole.Shown || Basis == ComparisonBasis.PerSecond => Judgement.NotJudged,
            { } difference when difference.IsChangeBeyond(Threshold) => difference.After.Value > difference.Before.Value == figure.HigherIsBetter ? Judgement.Improved : Judgement.Regressed,
            _ => Judgement.Unchanged,
        };
    }

    /// <summary>
    /// What changed, in one sentence, from each figure's <see cref="Judge"/>: throughput first, then each cost per operation
    /// that changed beyond its bound and the threshold, as "N× fewer" or "N× more"; the others are named as unchanged within
    /// the noise, never as a change. Voluntary context switches that differ by the threshold are named as a count that load
    /// moves, not as a change beyond a bound. Per second of recording, no verdict at all.
    /// </summary>
    public string Summary()
    {
        string before = Headings.Before == "Budget" ? $"its budget ({RunName(BeforeName)})" : RunName(BeforeName), after = RunName(AfterName);
        if (SameReport)
        {
            return $"{BeforeName} and {AfterName} are the same report: a run compared with itself shows no change by construction, "
                + "so this says nothing about the code. Give the report of the other run (the fix, or the main branch's).";
        }

        if (Basis == ComparisonBasis.PerSecond)
        {
            return $"No verdict on cost: {before} and {after} recorded for a time, not a known number of operations (attached, cut by --duration, or a command "
                + "that did not print 'asynccost: N operations'), so their figures are shown per second of recording, and a rate moves with throughput as much as "
                + "with each operation's cost (a fix that serves 3× the requests makes up to 3× of everything per second). "
                + "Give --operations N, the operations each run did, to judge the cost per operation.";
        }

        var per = " per " + Noun;
        var changed = new List<string>();
        var unchanged = new List<string>();
        var incomparable = new List<string>();
        string? lastVerb = null;
        foreach (var (key, verb, noun, perOperation, unchangedName) in SummaryFigures)
        {
            if (Figures.FirstOrDefault(f => f.Key == key) is not { Difference: { } difference } figure)
            {
                continue;
            }

            switch (Judge(figure))
            {
                case Judgement.NotCompared:
                    incomparable.Add(unchangedName);
                    break;
                case Judgement.Improved or Judgement.Regressed:
                    // "allocates 2.0× fewer bytes and makes 1.2× fewer hops": a verb is said once for the figures that follow it.
                    // A service's throughput is its requests per second.
                    var named = key == "throughput" && Noun == "request" ? "requests per second" : noun;
                    changed.Add((verb == lastVerb ? "" : verb + " ") + $"{Factor(difference)} {named}{(perOperation ? per : "")}"
                        + (difference.Estimated ? $" ({Numbers.CompactBound(difference.RatioRelativeBound)})" : ""));
                    lastVerb = verb;
                    break;
                default:
                    unchanged.Add(unchangedName);
                    break;
            }
        }

        var tolerance = ThresholdText;
        var noChange = $"no change beyond the noise or {tolerance} in {JoinAnd(unchanged)}";
        // Voluntary switches (threads blocking) are what a sync-over-async fix changes, but no bound says how far load moves them.
        var switches = Figures.FirstOrDefault(f => f.Key == "voluntaryContextSwitches")?.Difference;
        var switchChange = switches is { Ratio: not null } && switches.IsChangeBeyond(Threshold)
            ? $"{Factor(switches)} voluntary context switches (threads blocking){per}"
            : null;
        const string LoadDependent = "a count that moves with the machine's load, not a cost with a bound (rerun both to confirm)";
        var sentence = changed.Count > 0
            ? $"{after} {JoinAnd(changed)} than {before}; every difference named is outside its bound and beyond {tolerance}"
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

        // A budget's per-method limits: the ones exceeded are named, as the gate names them.
        var methodsOver = Figures.Where(f => f.Key.StartsWith("method:", StringComparison.Ordinal) && Judge(f) == Judgement.Regressed).ToList();
        if (methodsOver.Count > 0)
        {
            sentence += $"; over the budget's method limits: {JoinAnd([.. methodsOver.Select(f => $"{f.Name} {Numbers.Figure(f.After, f.Format)} against {Numbers.Figure(f.Before, f.Format)}")])}";
        }

        return sentence + ".";
    }

    /// <summary>The threshold as text: "10 %".</summary>
    public string ThresholdText => Numbers.Percent(Threshold).Replace(".0 ", " ", StringComparison.Ordinal);

    /// <summary>One line per regression, for the gate's message: what got worse, from what to what, and by how much.</summary>
    public IReadOnlyList<string> RegressionLines() => [.. Regressions.Select(f =>
        $"{f.Name}: {Numbers.Figure(f.Before, f.Format)} in {RunName(BeforeName)}, {Numbers.Figure(f.After, f.Format)} in {RunName(AfterName)} "
        + $"({Factor(f.Difference!)}), worse beyond its bound and the {ThresholdText} threshold")];

    // An after of zero: an exact one is all gone; an estimate of zero is below its bound, so the factor is at least before / bound.
    // A before of zero: nothing to divide, so the after is said as it is.
    private static string Factor(FigureDifference difference) => difference.Ratio switch
    {
        null => "more",
        0 when difference.After.ErrorBound == 0 => "100 % fewer",
        0 => "≥" + Times(difference.Before.Value / difference.After.ErrorBound) + " fewer",
        < 1 and var ratio => Times(1 / ratio) + " fewer",
        var ratio => Times(ratio.Value) + " more",
    };

    private static string Times(double factor) => factor.ToString(factor >= 100 ? "N0" : "0.0", CultureInfo.InvariantCulture) + "×";

    /// <summary>What the figures count, as a heading: "Before and after, per operation (400 operations each)".</summary>
    public string Title => Basis switch
    {
        ComparisonBasis.PerOperation when Headings.Before == "Budget" => $"Budget and measured, per operation ({OperationsText(PassOperations.After, noun: true)})",
        ComparisonBasis.PerOperation when Operations is { } given && PassOperations is ([{ Operations: var b }], [{ Operations: var a }]) && a == given && b == given => $"Before and after, per operation ({Numbers.Count(given)} operations each)",
        ComparisonBasis.PerOperation when Noun == "request" => $"Before and after, per request (each pass's requests: {OperationsText(PassOperations.Before, noun: false)}"
            + $"{(PassOperations.Before.Count > 1 ? ";" : "")} and {OperationsText(PassOperations.After, noun: false)})",
        ComparisonBasis.PerOperation => $"Before and after, per operation (each run's own: {OperationsText(PassOperations.Before, noun: false)}"
            + $"{(PassOperations.Before.Count > 1 ? ";" : "")} and {OperationsText(PassOperations.After, noun: false)})",
        _ => "Before and after, per second of recording",
    };

    /// <summary>The passes that know their operations: the first alone when all say the same count.</summary>
    private static List<PassSummary> DistinctOperations(AsyncCostReport report)
    {
        var counted = report.Passes.Where(p => p.Operations is not null).ToList();
        return counted.Select(p => p.Operations).Distinct().Count() > 1 ? counted : [.. counted.Take(1)];
    }

    /// <summary>A run's operations: "1,168 (operations)", or, when its passes did different work, each pass's ("10,243,369
    /// (operations) in the allocations pass, 188,002 in the hops pass"), since each figure is over its own pass's.</summary>
    private static string OperationsText(IReadOnlyList<PassSummary> passes, bool noun) => passes.Count switch
    {
        0 => "?" + (noun ? " operations" : ""),
        1 => Numbers.Count(passes[0].Operations!.Value) + (noun ? " operations" : ""),
        _ => string.Join(", ", passes.Select((p, i) => $"{Numbers.Count(p.Operations!.Value)}{(i == 0 && noun ? " operations" : "")} in the {ReportDocument.PassName(p.Pass)} pass")),
    };

    /// <summary>The comparison for people: formatted cells (table, markdown), the summary sentence last.</summary>
    public TextDocument Document()
    {
        var table = new TextTable(Title, [new("Figure", ColumnAlignment.Left), new(Headings.Before), new(Headings.After), new($"{Headings.After}/{Headings.Before}")])
        {
            Note = "~ marks an estimate with its error bound (95 %); ≈ marks a difference within the noise (the two bounds overlap), "
                + "which is no evidence of a change. Allocated bytes are the whole process's (startup included); async-method bytes come "
                + "from the allocation pass (TPL events off); hops from the hop pass; context switches from /proc over the whole session, "
                + "a count that moves with the machine's load (marked load)."
                + (Basis == ComparisonBasis.PerSecond ? " Per second: each figure over its own pass's recording time."
                    : " Per operation: each figure over the operations of the pass it came from. Throughput: operations per second of the "
                    + "allocation pass's run, by the command's own clock when both said it ('asynccost: N operations in S s'), else over "
                    + "the recording; no bound says how far a rerun moves it, so a change is named only beyond " + ThresholdText + "."),
        };
        foreach (var figure in Figures)
        {
            table.AddRow(figure.Name, Numbers.Figure(figure.Before, figure.Format), Numbers.Figure(figure.After, figure.Format), RatioCell(figure));
        }

        List<TextTable> tables = [table];
        if (FindingTimes is not null)
        {
            tables.Add(FindingTimes.Table(Basis, ThresholdText));
            if (FindingTimes.SavingsTable(Basis) is { } savings)
            {
                tables.Add(savings);
            }
        }
        return new TextDocument("AsyncCost comparison", [$"{Headings.Before}: {BeforeName}", $"{Headings.After}: {AfterName}"], tables) { Conclusion = Summary() };
    }

    /// <summary>The comparison for scripts and spreadsheets (csv): plain invariant numbers, empty for a missing figure.</summary>
    public TextTable Raw()
    {
        var table = new TextTable("comparison",
        [
            new("figure", ColumnAlignment.Left), new("perOperation"), new("before"), new("beforeErrorBound"), new("after"), new("afterErrorBound"),
            new("ratio"), new("ratioRelativeBound"), new("withinNoise"), new("judgement"),
        ]);
        foreach (var figure in Figures)
        {
            table.AddRow(figure.Key, figure.PerOperation ? "true" : "false",
                Numbers.Raw(figure.Before?.Value), Numbers.Raw(figure.Before?.ErrorBound), Numbers.Raw(figure.After?.Value), Numbers.Raw(figure.After?.ErrorBound),
                Numbers.Raw(figure.Difference?.Ratio), Numbers.Raw(figure.Difference?.RatioRelativeBound), figure.WithinNoise ? "true" : "false", JudgementName(Judge(figure)));
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
                ["judgement"] = JudgementName(Judge(figure)),
            });
        }

        return new JsonObject
        {
            ["before"] = BeforeName,
            ["after"] = AfterName,
            ["operations"] = Operations,
            ["basis"] = JsonNamingPolicy.CamelCase.ConvertName(Basis.ToString()),
            ["threshold"] = Threshold,
            ["figures"] = figures,
            ["regressions"] = new JsonArray([.. Regressions.Select(f => (JsonNode)f.Key)]),
            ["findingTimes"] = FindingTimes?.Json(),
            ["summary"] = Summary(),
        }.ToJsonString(AsyncCostReportJson.Options);
    }

    /// <summary>A judgement as JSON and csv name it: "improved", "regressed", "unchanged", "loadDependent", "notCompared", "notJudged", "none".</summary>
    internal static string JudgementName(Judgement judgement) => JsonNamingPolicy.CamelCase.ConvertName(judgement.ToString());

    /// <summary>A figure: its value, kind ("exact", "estimate", or "loadDependent" for a count the machine's load moves) and bound.</summary>
    internal static JsonObject? FigureJson(Figure? figure, bool loadDependent) => figure is null ? null : new JsonObject
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

    private static string Rate(double value) => value.ToString(value >= 10 ? "N0" : "0.##", CultureInfo.InvariantCulture);

    private static string Fraction(double value) => value.ToString(value >= 100 ? "N0" : "0.###", CultureInfo.InvariantCulture);
}
